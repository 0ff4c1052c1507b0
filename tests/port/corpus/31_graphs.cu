// CUDA graphs: capture a stream's work once and replay it.
#include <cuda_runtime.h>

__global__ void step(float* x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] += 1.0f;
}

int replay(float* x, int n, int times) {
  cudaStream_t s;
  cudaStreamCreate(&s);
  cudaGraph_t graph;
  cudaGraphExec_t exec;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  step<<<(n + 255) / 256, 256, 0, s>>>(x, n);
  step<<<(n + 255) / 256, 256, 0, s>>>(x, n);
  cudaStreamEndCapture(s, &graph);
  cudaGraphInstantiate(&exec, graph, nullptr, nullptr, 0);
  for (int i = 0; i < times; ++i) cudaGraphLaunch(exec, s);
  cudaStreamSynchronize(s);
  cudaGraphExecDestroy(exec);
  cudaGraphDestroy(graph);
  cudaStreamDestroy(s);
  return 0;
}
