"""torch.distributed's own all-reduce on every GPU of this machine (NCCL backend, one process per GPU), timed
the way nccl-tests and `gpudoctor collectives` time it: warm-up, a barrier, N iterations up to a synchronize,
the mean of the ranks' times; algbw = bytes / time, busbw = algbw * 2(n-1)/n. Prints one line per size, for
comparison with `gpudoctor collectives --ops all_reduce --min-bytes 1M --max-bytes 1G`."""
import os
import time

import torch
import torch.distributed as dist
import torch.multiprocessing as mp

ITERS, WARMUP = 20, 5


def rank_main(rank, world, sizes, results):
    os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
    os.environ.setdefault("MASTER_PORT", "29533")
    torch.cuda.set_device(rank)
    dist.init_process_group("nccl", rank=rank, world_size=world)
    for size in sizes:
        x = torch.ones(size // 4, dtype=torch.float32, device="cuda")
        for _ in range(WARMUP):
            dist.all_reduce(x)
        dist.barrier()
        torch.cuda.synchronize()
        start = time.perf_counter()
        for _ in range(ITERS):
            dist.all_reduce(x)
        torch.cuda.synchronize()
        seconds = (time.perf_counter() - start) / ITERS
        t = torch.tensor([seconds], device="cuda")
        dist.all_reduce(t)
        if rank == 0:
            results.append((size, t.item() / world))
    dist.destroy_process_group()


def main():
    world = torch.cuda.device_count()
    sizes = [1 << s for s in range(20, 31)]  # 1 MiB .. 1 GiB
    with mp.Manager() as manager:
        results = manager.list()
        mp.spawn(rank_main, args=(world, sizes, results), nprocs=world, join=True)
        print(f"torch {torch.__version__}, NCCL {torch.cuda.nccl.version()}, {world} GPU(s)")
        print(f"{'size (B)':>12} {'time (us)':>12} {'algbw (GB/s)':>13} {'busbw (GB/s)':>13}")
        for size, seconds in results:
            algbw = size / 1e9 / seconds
            print(f"{size:>12} {seconds * 1e6:>12.1f} {algbw:>13.2f} {algbw * 2 * (world - 1) / world:>13.2f}")


if __name__ == "__main__":
    main()
