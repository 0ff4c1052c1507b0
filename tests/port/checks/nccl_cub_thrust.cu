// NCCL keeps its names under RCCL; CUB becomes hipCUB; Thrust's CUDA backend becomes the HIP backend.
#include <nccl.h>
// CHECK: #include <rccl/rccl.h>
#include <cub/cub.cuh>
// CHECK: #include <hipcub/hipcub.hpp>
#include <thrust/device_vector.h>
// CHECK: #include <thrust/device_vector.h>
#include <thrust/system/cuda/execution_policy.h>
// CHECK: #include <thrust/system/hip/execution_policy.h>

void reduce(const float* in, float* out, int n, void* tmp, size_t bytes, ncclComm_t comm, cudaStream_t s) {
  cub::DeviceReduce::Sum(tmp, bytes, in, out, n, s);
  // CHECK: hipcub::DeviceReduce::Sum(tmp, bytes, in, out, n, s);
  ncclAllReduce(in, out, n, ncclFloat, ncclSum, comm, s);
  // CHECK: ncclAllReduce(in, out, n, ncclFloat, ncclSum, comm, s);
  thrust::device_vector<float> v(n);
  thrust::fill(thrust::cuda::par.on(s), v.begin(), v.end(), 0.0f);
  // CHECK: thrust::fill(thrust::hip::par.on(s), v.begin(), v.end(), 0.0f);
}
// CONVERTED: headers=3 nccl=2 cub=1 thrust=1 types=1
