// cuSPARSE: a handle and a matrix descriptor for a CSR matrix.
#include <cusparse.h>

int sparse_setup() {
  cusparseHandle_t handle;
  if (cusparseCreate(&handle) != CUSPARSE_STATUS_SUCCESS) return 1;
  cusparseMatDescr_t descr;
  cusparseCreateMatDescr(&descr);
  cusparseSetMatType(descr, CUSPARSE_MATRIX_TYPE_GENERAL);
  cusparseSetMatIndexBase(descr, CUSPARSE_INDEX_BASE_ZERO);
  cusparseDestroyMatDescr(descr);
  cusparseDestroy(handle);
  return 0;
}
