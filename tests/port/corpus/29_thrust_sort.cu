// Thrust: sort on the device with an explicit CUDA stream policy.
#include <thrust/device_vector.h>
#include <thrust/sort.h>
#include <thrust/system/cuda/execution_policy.h>
#include <cuda_runtime.h>

void sort_on(thrust::device_vector<float>& v, cudaStream_t s) {
  thrust::sort(thrust::cuda::par.on(s), v.begin(), v.end());
}
