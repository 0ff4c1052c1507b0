// MPI as gpudoctor uses it to bootstrap ranks started by `mpirun` or Slurm's `srun`: the library is loaded at
// run time, never linked. ABI: Open MPI's libmpi.so.40 (Open MPI 3.x, 4.x, 5.x; Debian's libopenmpi3), where
// MPI_Comm and MPI_Datatype are pointers and the predefined handles are the addresses of exported objects
// (MPI_COMM_WORLD is &ompi_mpi_comm_world, MPI_BYTE &ompi_mpi_byte, MPI_INT &ompi_mpi_int). MPICH and its
// derivatives (Intel MPI, Cray MPICH: libmpi.so.12) use integer handles and are not supported yet: their
// library is not even tried, and the launcher is reported as needing Open MPI.
#pragma once

#include <string>
#include <vector>

#include "platform/symbol_binder.h"

namespace gpudoctor {

using MpiComm = void*;      // struct ompi_communicator_t*
using MpiDatatype = void*;  // struct ompi_datatype_t*
inline constexpr int kMpiSuccess = 0;

struct MpiApi {
  // Required functions.
  int (*Init)(int*, char***) = nullptr;  // MPI_Init
  int (*Initialized)(int*) = nullptr;    // MPI_Initialized
  int (*Finalize)() = nullptr;           // MPI_Finalize
  int (*CommRank)(MpiComm, int*) = nullptr;
  int (*CommSize)(MpiComm, int*) = nullptr;
  int (*Bcast)(void*, int, MpiDatatype, int, MpiComm) = nullptr;
  int (*Allgather)(const void*, int, MpiDatatype, void*, int, MpiDatatype, MpiComm) = nullptr;
  int (*Gather)(const void*, int, MpiDatatype, void*, int, MpiDatatype, int, MpiComm) = nullptr;
  int (*Barrier)(MpiComm) = nullptr;
  int (*Abort)(MpiComm, int) = nullptr;
  // Required objects, whose addresses are the predefined handles (Open MPI's mpi.h OMPI_PREDEFINED_GLOBAL).
  MpiComm comm_world = nullptr;     // &ompi_mpi_comm_world
  MpiDatatype byte_type = nullptr;  // &ompi_mpi_byte
  MpiDatatype int_type = nullptr;   // &ompi_mpi_int
};

// libmpi.so.40 (Open MPI), then libmpi.so when it is Open MPI's.
std::vector<std::string> MpiLibraryNames();

LoadedTable<MpiApi> LoadMpi(const std::vector<std::string>& candidates);

}  // namespace gpudoctor
