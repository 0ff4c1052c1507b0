// MpiSession over the Open MPI table (see mpi_session.h).
#include "collectives/mpi_session.h"

#include <algorithm>
#include <limits>

namespace gpudoctor {

Result<std::unique_ptr<MpiSession>> MpiSession::Start() {
  std::unique_ptr<MpiSession> s(new MpiSession());
  s->mpi_ = LoadMpi(MpiLibraryNames());
  if (s->mpi_.status == LoadStatus::kAbsent)
    return EnvError(
        "Open MPI's libmpi.so.40 was not found (" + s->mpi_.load.last_error + ")",
        "install Open MPI (Debian: apt-get install openmpi-bin libopenmpi3), or run without mpirun/srun");
  if (s->mpi_.status == LoadStatus::kBroken)
    return EnvError(
        "libmpi at " + s->mpi_.load.loaded_path + " is not Open MPI's (" + s->mpi_.symbols.Summary() + ")",
        "gpudoctor supports Open MPI only so far; MPICH and its derivatives are not supported yet");
  s->library_path_ = s->mpi_.load.loaded_path;
  const MpiApi& api = s->mpi_.api;
  int initialized = 0;
  if (api.Initialized(&initialized) == kMpiSuccess && !initialized) {
    if (auto st = s->Check(api.Init(nullptr, nullptr), "MPI_Init"); !st) return st.error();
    s->finalize_ = true;
  }
  if (auto st = s->Check(api.CommRank(api.comm_world, &s->rank_), "MPI_Comm_rank"); !st) return st.error();
  if (auto st = s->Check(api.CommSize(api.comm_world, &s->size_), "MPI_Comm_size"); !st) return st.error();
  return s;
}

MpiSession::~MpiSession() {
  if (finalize_ && mpi_.api.Finalize) mpi_.api.Finalize();
}

Status MpiSession::Check(int rc, const char* call) const {
  if (rc == kMpiSuccess) return Ok{};
  return EnvError(std::string(call) + " failed with MPI error " + std::to_string(rc));
}

Status MpiSession::Broadcast(void* data, int bytes, int root) {
  return Check(mpi_.api.Bcast(data, bytes, mpi_.api.byte_type, root, mpi_.api.comm_world), "MPI_Bcast");
}

Status MpiSession::Barrier() {
  return Check(mpi_.api.Barrier(mpi_.api.comm_world), "MPI_Barrier");
}

Result<std::vector<int>> MpiSession::AllgatherInt(int value) {
  std::vector<int> all(static_cast<size_t>(size_));
  if (auto s = Check(mpi_.api.Allgather(&value, 1, mpi_.api.int_type, all.data(), 1, mpi_.api.int_type,
                                        mpi_.api.comm_world),
                     "MPI_Allgather");
      !s)
    return s.error();
  return all;
}

Result<std::vector<std::string>> MpiSession::GatherStrings(const std::string& mine, int root) {
  if (mine.size() > static_cast<size_t>(std::numeric_limits<int>::max() / std::max(size_, 1)))
    return InternalError("a rank's report is too large to gather");
  auto lengths = AllgatherInt(static_cast<int>(mine.size()));
  if (!lengths) return lengths.error();
  int longest = std::max(1, *std::max_element(lengths->begin(), lengths->end()));
  std::string padded = mine;
  padded.resize(static_cast<size_t>(longest), '\0');
  std::vector<char> all(rank_ == root ? static_cast<size_t>(longest) * static_cast<size_t>(size_) : 1);
  if (auto s = Check(mpi_.api.Gather(padded.data(), longest, mpi_.api.byte_type, all.data(), longest,
                                     mpi_.api.byte_type, root, mpi_.api.comm_world),
                     "MPI_Gather");
      !s)
    return s.error();
  std::vector<std::string> out;
  if (rank_ != root) return out;
  for (int r = 0; r < size_; ++r)
    out.emplace_back(all.data() + static_cast<size_t>(r) * longest, static_cast<size_t>((*lengths)[r]));
  return out;
}

}  // namespace gpudoctor
