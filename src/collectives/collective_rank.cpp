// The body of one collective rank (see collective_rank.h).
#include "collectives/collective_rank.h"

#include <algorithm>
#include <chrono>

#include "collectives/collective_data.h"

namespace gpudoctor {
namespace {

using Clock = std::chrono::steady_clock;
constexpr uint32_t kSentinel = 0xffffffffu;  // a NaN: never equal to an expected value

struct Buffers {
  DevicePtr send = 0;
  DevicePtr recv = 0;
  DevicePtr barrier = 0;
};

void* Ptr(DevicePtr p) {
  return reinterpret_cast<void*>(static_cast<uintptr_t>(p));
}

class Rank {
 public:
  Rank(Backend& backend, const NcclApi& nccl, const CollectiveWorkerRequest& request)
      : backend_(backend), nccl_(nccl), request_(request) {}
  ~Rank() {
    if (comm_) nccl_.CommDestroy(comm_);
    for (DevicePtr p : {buffers_.send, buffers_.recv, buffers_.barrier})
      if (p) (void)backend_.Free(p);
  }
  Rank(const Rank&) = delete;
  Rank& operator=(const Rank&) = delete;

  Status Init(RankReport& report, const std::vector<uint64_t>& sizes) {
    if (auto s = backend_.OpenDevice(request_.device); !s) return s;
    auto devices = backend_.Devices();
    if (devices && request_.device < static_cast<int>(devices->size())) {
      report.device_name = (*devices)[request_.device].name;
      report.pci_address = (*devices)[request_.device].pci_address;
    }
    uint64_t send = 1, recv = 1;
    for (auto op : request_.options.ops) {
      for (uint64_t size : sizes) {
        if (auto c = CountsFor(op, size, request_.ranks)) {
          send = std::max(send, c->send);
          recv = std::max(recv, c->recv);
        }
      }
    }
    auto s = backend_.Allocate(send * 4);
    if (!s) return s.error().With("allocating the send buffer");
    buffers_.send = *s;
    auto r = backend_.Allocate(recv * 4);
    if (!r) return r.error().With("allocating the receive buffer");
    buffers_.recv = *r;
    auto b = backend_.Allocate(4);
    if (!b) return b.error();
    buffers_.barrier = *b;
    ncclUniqueId id{};
    if (!HexDecode(request_.unique_id_hex, id.internal, sizeof id.internal))
      return UserError("malformed NCCL unique id");
    if (auto st = Nccl(nccl_.CommInitRank(&comm_, request_.ranks, id, request_.rank), "ncclCommInitRank");
        !st)
      return st;
    return Ok{};
  }

  RankMeasurement Measure(CollectiveOp op, const CollectiveCounts& c) {
    RankMeasurement m;
    m.op = op;
    m.size_bytes = std::max(c.send, c.recv) * 4;
    auto fail = [&m](const Error& e) {
      m.error = e.message;
      return m;
    };
    std::vector<float> input = CollectiveSendBuffer(op, request_.rank, request_.ranks, c);
    if (auto s = backend_.CopyToDevice(buffers_.send, input.data(), input.size() * 4); !s)
      return fail(s.error());
    for (int i = 0; i < request_.options.warmup; ++i)
      if (auto s = Launch(op, c); !s) return fail(s.error());
    if (auto s = Barrier(); !s) return fail(s.error());
    auto start = Clock::now();
    for (int i = 0; i < request_.options.iters; ++i)
      if (auto s = Launch(op, c); !s) return fail(s.error());
    if (auto s = Sync(); !s) return fail(s.error());
    double seconds = std::chrono::duration<double>(Clock::now() - start).count();
    m.time_us = seconds * 1e6 / request_.options.iters;
    // The check: a fresh receive buffer, one more run, every element compared.
    if (auto s = backend_.Memset32(buffers_.recv, kSentinel, c.recv); !s) return fail(s.error());
    if (auto s = Launch(op, c); !s) return fail(s.error());
    if (auto s = Sync(); !s) return fail(s.error());
    std::vector<float> output(c.recv);
    if (auto s = backend_.CopyToHost(output.data(), buffers_.recv, output.size() * 4); !s)
      return fail(s.error());
    m.checked = c.recv;
    m.wrong = CountWrongElements(op, request_.rank, request_.ranks, c, output);
    return m;
  }

 private:
  Status Nccl(ncclResult_t rc, const char* call) const {
    if (rc == kNcclSuccess) return Ok{};
    return EnvError(std::string(call) + " failed: " + NcclErrorText(nccl_, rc));
  }

  Status Sync() {
    if (auto s = backend_.Synchronize(); !s) return s;
    if (nccl_.CommGetAsyncError) {
      ncclResult_t async = kNcclSuccess;
      if (nccl_.CommGetAsyncError(comm_, &async) == kNcclSuccess && async != kNcclSuccess)
        return EnvError("NCCL reported an asynchronous error: " + NcclErrorText(nccl_, async));
    }
    return Ok{};
  }

  // Every rank returns from this only once all have reached it.
  Status Barrier() {
    if (auto s = Nccl(nccl_.AllReduce(Ptr(buffers_.barrier), Ptr(buffers_.barrier), 1, kNcclFloat32, kNcclSum,
                                      comm_, nullptr),
                      "ncclAllReduce (barrier)");
        !s)
      return s;
    return Sync();
  }

  Status Launch(CollectiveOp op, const CollectiveCounts& c) {
    void* send = Ptr(buffers_.send);
    void* recv = Ptr(buffers_.recv);
    switch (op) {
      case CollectiveOp::kAllReduce:
        return Nccl(nccl_.AllReduce(send, recv, c.param, kNcclFloat32, kNcclSum, comm_, nullptr),
                    "ncclAllReduce");
      case CollectiveOp::kAllGather:
        return Nccl(nccl_.AllGather(send, recv, c.param, kNcclFloat32, comm_, nullptr), "ncclAllGather");
      case CollectiveOp::kReduceScatter:
        return Nccl(nccl_.ReduceScatter(send, recv, c.param, kNcclFloat32, kNcclSum, comm_, nullptr),
                    "ncclReduceScatter");
      case CollectiveOp::kBroadcast:
        return Nccl(nccl_.Broadcast(send, recv, c.param, kNcclFloat32, 0, comm_, nullptr), "ncclBroadcast");
      case CollectiveOp::kAllToAll: {
        if (!nccl_.Send || !nccl_.Recv)
          return EnvError("the library has no ncclSend/ncclRecv (NCCL 2.7 or later needed)");
        if (auto s = Nccl(nccl_.GroupStart(), "ncclGroupStart"); !s) return s;
        Status status = Ok{};
        for (int peer = 0; peer < request_.ranks && status.ok(); ++peer) {
          uint64_t offset = static_cast<uint64_t>(peer) * c.param * 4;
          status =
              Nccl(nccl_.Send(static_cast<char*>(send) + offset, c.param, kNcclFloat32, peer, comm_, nullptr),
                   "ncclSend");
          if (status.ok())
            status = Nccl(
                nccl_.Recv(static_cast<char*>(recv) + offset, c.param, kNcclFloat32, peer, comm_, nullptr),
                "ncclRecv");
        }
        Status end = Nccl(nccl_.GroupEnd(), "ncclGroupEnd");
        return status.ok() ? end : status;
      }
    }
    return InternalError("unknown collective");
  }

  Backend& backend_;
  const NcclApi& nccl_;
  const CollectiveWorkerRequest& request_;
  Buffers buffers_;
  ncclComm_t comm_ = nullptr;
};

}  // namespace

RankReport RunCollectiveRank(Backend& backend, const NcclApi& nccl, const CollectiveWorkerRequest& request) {
  RankReport report;
  report.rank = request.rank;
  report.device = request.device;
  std::vector<uint64_t> sizes =
      SizeSweep(request.options.min_bytes, request.options.max_bytes, request.options.factor);
  Rank rank(backend, nccl, request);
  if (auto s = rank.Init(report, sizes); !s) {
    report.error = s.error().message;
    return report;
  }
  for (auto op : request.options.ops) {
    for (uint64_t size : sizes) {
      auto counts = CountsFor(op, size, request.ranks);
      if (!counts) continue;  // too small to give each rank an element
      RankMeasurement m = rank.Measure(op, *counts);
      bool failed = !m.error.empty();
      report.results.push_back(std::move(m));
      if (failed) return report;  // the communicator may be unusable now
    }
  }
  return report;
}

}  // namespace gpudoctor
