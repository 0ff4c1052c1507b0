// One MPI job as gpudoctor uses it: Open MPI loaded at run time (gpu/api/mpi_api.h), MPI_Init on start and
// MPI_Finalize on destruction, and the three exchanges the bootstrap needs: broadcast bytes (the NCCL unique
// id), all-gather one int per rank (every rank ready?), gather one string per rank to a root (the ranks'
// reports; MPI_Gather of fixed-size buffers padded to the longest, whose length an all-gather tells first).
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/result.h"
#include "gpu/api/mpi_api.h"

namespace gpudoctor {

class MpiSession {
 public:
  // Loads libmpi, calls MPI_Init. An error names the library tried and why it failed.
  static Result<std::unique_ptr<MpiSession>> Start();
  ~MpiSession();
  MpiSession(const MpiSession&) = delete;
  MpiSession& operator=(const MpiSession&) = delete;

  int rank() const { return rank_; }
  int size() const { return size_; }
  const std::string& library_path() const { return library_path_; }

  Status Broadcast(void* data, int bytes, int root);
  Status Barrier();
  Result<std::vector<int>> AllgatherInt(int value);
  // At `root`: every rank's string in rank order; elsewhere an empty vector.
  Result<std::vector<std::string>> GatherStrings(const std::string& mine, int root);

 private:
  MpiSession() = default;
  Status Check(int rc, const char* call) const;

  LoadedTable<MpiApi> mpi_;
  int rank_ = 0;
  int size_ = 1;
  bool finalize_ = false;
  std::string library_path_;
};

}  // namespace gpudoctor
