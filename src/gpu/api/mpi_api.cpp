// The Open MPI loader (see mpi_api.h).
#include "gpu/api/mpi_api.h"

namespace gpudoctor {

std::vector<std::string> MpiLibraryNames() {
  return {"libmpi.so.40", "libmpi.so"};
}

LoadedTable<MpiApi> LoadMpi(const std::vector<std::string>& candidates) {
  return LoadTable<MpiApi>(candidates, [](SymbolBinder& b, MpiApi& t) {
    b.Required(t.Init, {"MPI_Init"});
    b.Required(t.Initialized, {"MPI_Initialized"});
    b.Required(t.Finalize, {"MPI_Finalize"});
    b.Required(t.CommRank, {"MPI_Comm_rank"});
    b.Required(t.CommSize, {"MPI_Comm_size"});
    b.Required(t.Bcast, {"MPI_Bcast"});
    b.Required(t.Allgather, {"MPI_Allgather"});
    b.Required(t.Gather, {"MPI_Gather"});
    b.Required(t.Barrier, {"MPI_Barrier"});
    b.Required(t.Abort, {"MPI_Abort"});
    // Open MPI's predefined handles; an MPICH library lacks them and is reported broken by name.
    void* world = nullptr;
    void* byte_type = nullptr;
    void* int_type = nullptr;
    b.Required(world, {"ompi_mpi_comm_world"});
    b.Required(byte_type, {"ompi_mpi_byte"});
    b.Required(int_type, {"ompi_mpi_int"});
    t.comm_world = world;
    t.byte_type = byte_type;
    t.int_type = int_type;
  });
}

}  // namespace gpudoctor
