# gpudoctor tune's framework child: timed PyTorch training steps in the user's own environment.
#
# Run by `gpudoctor tune` with the chosen interpreter as `python - ARGS` (this text arrives on stdin;
# it is compiled into the binary from data/tune/tune_child.py). Synthetic data only, nothing is
# downloaded. It writes one JSON object per line on stdout (docs/tune.md, "Protocol"):
#   hello     torch version, backend (cuda / rocm / cpu), device name, bf16 support
#   begin     before each measurement (a hang or a crash is blamed on the last begin)
#   result    a timed run: model, precision, channels_last, benchmark, batch, samples/s, loss
#   search    the largest batch that fits, with every batch tried and whether it fitted
#   skip      a measurement left out, with the reason
#   progress  done / total, for the parent's progress line
#   error     something failed (code "no_gpu" when there is no usable GPU)
#   end       the last line of a complete run
# Anything else on stdout is ignored by the parent; tracebacks go to stderr.
import argparse
import contextlib
import gc
import json
import math
import os
import sys
import time


def emit(kind, **fields):
    fields["type"] = kind
    sys.stdout.write(json.dumps(fields) + "\n")
    sys.stdout.flush()


def parse_args(argv):
    p = argparse.ArgumentParser(prog="tune_child")
    p.add_argument("--device", default="0", help="GPU index, or cpu (a test aid)")
    p.add_argument("--size", choices=["full", "quick", "tiny"], default="full")
    p.add_argument("--models", default="resnet50,transformer")
    p.add_argument("--precisions", default="fp32,fp16,bf16")
    p.add_argument("--max-batch", type=int, default=0, help="cap of the batch search (0: the size's own)")
    p.add_argument("--exact", action="store_true", help="bisect down to one sample")
    p.add_argument("--no-search", action="store_true")
    return p.parse_args(argv)


# Sizes: image side, batch of the knob runs, warm-up and timed steps, batch search cap, transformer shape.
SIZES = {
    "full": dict(image=224, batch=32, warmup=10, steps=50, large_steps=10, cap=4096, d_model=1024, heads=16, ff=4096,
                 layers=2, seq=512, vocab=8192, tokens_batch=8, tokens_cap=1024),
    "quick": dict(image=96, batch=32, warmup=3, steps=8, large_steps=3, cap=512, d_model=512, heads=8, ff=2048,
                  layers=1, seq=256, vocab=4096, tokens_batch=8, tokens_cap=256),
    "tiny": dict(image=32, batch=2, warmup=1, steps=2, large_steps=2, cap=16, d_model=32, heads=2, ff=64,
                 layers=1, seq=16, vocab=64, tokens_batch=2, tokens_cap=16),
}


def is_oom(e):
    import torch
    oom_type = getattr(torch.cuda, "OutOfMemoryError", None)
    if oom_type is not None and isinstance(e, oom_type):
        return True
    return isinstance(e, RuntimeError) and "out of memory" in str(e).lower()


class Planted(RuntimeError):
    pass


def planted_oom_above():
    # Test aid: GPUDOCTOR_TUNE_PLANT_OOM_ABOVE=N makes every step above batch N fail as an
    # out-of-memory error would, so the search can be checked without filling a GPU.
    text = os.environ.get("GPUDOCTOR_TUNE_PLANT_OOM_ABOVE", "")
    return int(text) if text.isdigit() else None


class Bench:
    def __init__(self, torch, device, size):
        self.torch = torch
        self.device = device
        self.size = size
        self.gpu = device.type == "cuda"
        self.plant = planted_oom_above()

    def sync(self):
        if self.gpu:
            self.torch.cuda.synchronize(self.device)

    def free(self):
        gc.collect()
        if self.gpu:
            self.torch.cuda.empty_cache()

    def build(self, model_name, channels_last):
        torch = self.torch
        s = self.size
        if model_name == "resnet50":
            import torchvision
            model = torchvision.models.resnet50(weights=None) if hasattr(torchvision.models, "ResNet50_Weights") \
                else torchvision.models.resnet50(pretrained=False)
            model = model.to(self.device)
            if channels_last:
                model = model.to(memory_format=torch.channels_last)
            return model
        layer = torch.nn.TransformerEncoderLayer(s["d_model"], s["heads"], s["ff"], dropout=0.0,
                                                 batch_first=True, norm_first=True)
        try:  # pre-norm layers cannot take the nested-tensor fast path; saying so keeps a warning away
            blocks = torch.nn.TransformerEncoder(layer, s["layers"], enable_nested_tensor=False)
        except TypeError:
            blocks = torch.nn.TransformerEncoder(layer, s["layers"])
        model = torch.nn.Sequential()
        model.add_module("embed", torch.nn.Embedding(s["vocab"], s["d_model"]))
        model.add_module("blocks", blocks)
        model.add_module("head", torch.nn.Linear(s["d_model"], s["vocab"]))
        return model.to(self.device)

    def data(self, model_name, batch, channels_last):
        torch = self.torch
        s = self.size
        g = torch.Generator(device="cpu").manual_seed(batch)
        if model_name == "resnet50":
            x = torch.randn(batch, 3, s["image"], s["image"], generator=g).to(self.device)
            if channels_last:
                x = x.contiguous(memory_format=torch.channels_last)
            y = torch.randint(0, 1000, (batch,), generator=g).to(self.device)
            return x, y
        x = torch.randint(0, s["vocab"], (batch, s["seq"]), generator=g).to(self.device)
        y = torch.randint(0, s["vocab"], (batch, s["seq"]), generator=g).to(self.device)
        return x, y

    def run(self, model_name, precision, channels_last, benchmark, batch, warmup, steps):
        """Trains `steps` timed steps after `warmup` untimed ones; returns (seconds, last loss)."""
        torch = self.torch
        torch.backends.cudnn.benchmark = benchmark
        model = self.build(model_name, channels_last)
        opt = torch.optim.SGD(model.parameters(), lr=1e-3, momentum=0.9)
        x, y = self.data(model_name, batch, channels_last)
        dtype = {"fp16": torch.float16, "bf16": torch.bfloat16}.get(precision)
        scaler = None
        if precision == "fp16":
            amp = getattr(torch, "amp", None)
            scaler = amp.GradScaler("cuda") if amp is not None and hasattr(amp, "GradScaler") \
                else torch.cuda.amp.GradScaler()
        loss_fn = torch.nn.CrossEntropyLoss()

        def step():
            if self.plant is not None and batch > self.plant:
                raise Planted("CUDA out of memory (planted above batch %d by the test)" % self.plant)
            opt.zero_grad(set_to_none=True)
            autocast = torch.autocast(device_type=self.device.type, dtype=dtype) if dtype is not None \
                else contextlib.nullcontext()
            with autocast:
                out = model(x)
                if model_name != "resnet50":
                    out = out.reshape(-1, out.shape[-1])
                loss = loss_fn(out, y.reshape(-1))
            if scaler is not None:
                scaler.scale(loss).backward()
                scaler.step(opt)
                scaler.update()
            else:
                loss.backward()
                opt.step()
            return loss

        for _ in range(warmup):
            step()
        self.sync()
        start = time.perf_counter()
        loss = None
        for _ in range(steps):
            loss = step()
        self.sync()
        seconds = time.perf_counter() - start
        return seconds, float(loss.detach().float().item())

    def fits(self, model_name, precision, channels_last, batch):
        """One warm-up and one step at `batch`; False on an out-of-memory error, after freeing it."""
        failed = False
        try:
            self.run(model_name, precision, channels_last, False, batch, 1, 1)
        except Exception as e:  # noqa: BLE001
            failed = True
            if not (is_oom(e) or isinstance(e, Planted)):
                # A huge batch can also break a library's limits (32-bit indexing, a kernel that does not
                # take the shape): as unusable as out of memory, but said, so it is not mistaken for one.
                emit("skip", item="%s/%s/batch %d" % (model_name, precision, batch),
                     reason="counted as not fitting: " + first_line(e))
        # Outside the except block, so the traceback's frames (and their tensors) are gone.
        self.free()
        return not failed


def largest_batch(fits, cap, exact, start=1):
    """Doubling from `start` until a batch fails or the cap is reached, then bisection between the last
    batch that fitted and the first that failed. Returns (largest fitting, smallest failing or None,
    [(batch, fitted)...])."""
    tried = []

    def probe(b):
        ok = fits(b)
        tried.append([b, ok])
        return ok

    cap = max(cap, start)
    if not probe(start):
        return 0, start, tried
    lo, hi = start, None
    while hi is None:
        b = min(lo * 2, cap)
        if b == lo:
            return lo, None, tried
        if probe(b):
            lo = b
        else:
            hi = b
    resolution = 1 if exact else max(1, lo // 16)
    while hi - lo > resolution:
        mid = (lo + hi) // 2
        if probe(mid):
            lo = mid
        else:
            hi = mid
    return lo, hi, tried


def first_line(e):
    text = str(e).strip()
    return "%s: %s" % (type(e).__name__, text.splitlines()[0] if text else "")


def recommended_batch(largest, base):
    """The batch to train with: the largest power of two within three quarters of the largest batch that
    fitted (headroom for a real data pipeline and fragmentation), never below the base batch."""
    batch = base
    while batch * 2 <= largest * 3 // 4:
        batch *= 2
    return batch


def measure(bench, size, model, precision, channels_last, benchmark, batch, role, warmup=None, steps=None):
    """One timed run, reported as a result line (or an error line); returns its samples/s or 0."""
    warmup = size["warmup"] if warmup is None else warmup
    steps = size["steps"] if steps is None else steps
    item = "%s/%s/%s/%s/%d" % (model, precision, "cl" if channels_last else "nchw",
                               "benchmark" if benchmark else "default", batch)
    emit("begin", item=item)
    rate = 0.0
    try:
        seconds, loss = bench.run(model, precision, channels_last, benchmark, batch, warmup, steps)
        per_sample = 1 if model == "resnet50" else size["seq"]
        finite = math.isfinite(loss)
        rate = batch * steps / seconds if seconds > 0 else 0.0
        emit("result", item=item, role=role, model=model, precision=precision, channels_last=channels_last,
             benchmark=benchmark, batch=batch, warmup=warmup, steps=steps, seconds=seconds,
             samples_per_s=rate, units_per_s=rate * per_sample,
             unit="images/s" if model == "resnet50" else "tokens/s",
             loss=loss if finite else None, loss_finite=finite)
        if not finite:
            rate = 0.0
    except Exception as e:  # noqa: BLE001 - a failed measurement is reported, the rest go on
        emit("error", item=item, code="oom" if is_oom(e) else "failed", message=first_line(e))
    bench.free()
    return rate


def main(argv):
    args = parse_args(argv)
    size = SIZES[args.size]
    try:
        import torch
    except BaseException as e:  # noqa: BLE001
        emit("error", item="setup", code="no_torch", message="import torch failed: " + first_line(e))
        return 0
    backend = "rocm" if getattr(torch.version, "hip", None) else "cuda"
    if args.device == "cpu":
        device = torch.device("cpu")
        backend = "cpu"
        name = "CPU"
        bf16 = False  # CPU bf16 autocast is not measured: it says nothing about a GPU
    else:
        if not torch.cuda.is_available():
            emit("error", item="setup", code="no_gpu", torch=str(torch.__version__),
                 message="torch.cuda.is_available() is False in this environment (torch %s, CUDA %s, HIP %s)"
                 % (torch.__version__, torch.version.cuda, getattr(torch.version, "hip", None)))
            return 0
        index = int(args.device)
        if index >= torch.cuda.device_count():
            emit("error", item="setup", code="no_device",
                 message="device %d asked for, torch sees %d" % (index, torch.cuda.device_count()))
            return 0
        device = torch.device("cuda", index)
        torch.cuda.set_device(device)
        name = torch.cuda.get_device_name(index)
        bf16 = bool(torch.cuda.is_bf16_supported())
    try:
        import torchvision  # noqa: F401
        vision = str(torchvision.__version__)
    except BaseException:  # noqa: BLE001
        vision = None
    emit("hello", torch=str(torch.__version__), torchvision=vision, backend=backend, device=name, bf16=bf16,
         size=args.size, warmup=size["warmup"], steps=size["steps"], image=size["image"], seq=size["seq"])

    bench = Bench(torch, device, size)
    models = []
    for model in [m for m in args.models.split(",") if m]:
        if model == "resnet50" and vision is None:
            emit("skip", item="resnet50", reason="torchvision is not installed in this environment")
        else:
            models.append(model)
    precisions = []
    for precision in [p for p in args.precisions.split(",") if p]:
        if precision == "fp16" and not bench.gpu:
            emit("skip", item="fp16", reason="fp16 autocast is measured on a GPU only")
        elif precision == "bf16" and not bf16:
            emit("skip", item="bf16", reason="bf16 is not supported by this device (or it is the CPU)")
        else:
            precisions.append(precision)
    plan = []  # (model, precision, channels_last, benchmark): every combination of the knobs
    for model in models:
        convolutional = model == "resnet50"
        for precision in precisions:
            for channels_last in ([False, True] if convolutional else [False]):
                for benchmark in ([False, True] if convolutional else [False]):
                    plan.append((model, precision, channels_last, benchmark))
    searches = [] if args.no_search else models
    total = len(plan) + len(searches)
    done = 0
    best = {}  # model -> (samples/s, precision, channels_last, benchmark) of its fastest run
    best_at = {}  # (model, precision) -> the same, per precision: the large batch is timed at the search's
    for model, precision, channels_last, benchmark in plan:
        batch = size["batch"] if model == "resnet50" else size["tokens_batch"]
        rate = measure(bench, size, model, precision, channels_last, benchmark, batch, "knob")
        if rate > best.get(model, (0.0,))[0]:
            best[model] = (rate, precision, channels_last, benchmark)
        if rate > best_at.get((model, precision), (0.0,))[0]:
            best_at[(model, precision)] = (rate, precision, channels_last, benchmark)
        done += 1
        emit("progress", done=done, total=total, item=model)
    # The largest batch that fits, at the best mixed precision the device has (fp32 on the CPU), then
    # the fastest settings timed again at the batch recommended from it.
    search_precision = "bf16" if "bf16" in precisions else ("fp16" if "fp16" in precisions else "fp32")
    for model in searches:
        item = "%s/%s/search" % (model, search_precision)
        emit("begin", item=item)
        cap = args.max_batch or (size["cap"] if model == "resnet50" else size["tokens_cap"])
        largest = None
        try:
            start = time.perf_counter()
            largest, failed_at, tried = largest_batch(
                lambda b: bench.fits(model, search_precision, model == "resnet50", b), cap, args.exact,
                start=2 if model == "resnet50" else 1)  # batch norm needs two samples to train
            emit("search", item=item, model=model, precision=search_precision, largest=largest,
                 failed_at=failed_at, cap=cap, tried=tried, seconds=time.perf_counter() - start)
        except Exception as e:  # noqa: BLE001
            emit("error", item=item, code="failed", message=first_line(e))
        bench.free()
        base = size["batch"] if model == "resnet50" else size["tokens_batch"]
        batch = recommended_batch(largest or 0, base)
        if model in best and batch > base:
            # About as many samples as a knob run (a large batch's step is long), at least large_steps.
            # The batch fitted at the search's precision; a wider one (fp32) may not fit it.
            _, precision, channels_last, benchmark = best_at.get((model, search_precision), best[model])
            measure(bench, size, model, precision, channels_last, benchmark, batch, "large_batch",
                    warmup=min(size["warmup"], 2), steps=max(size["large_steps"], size["steps"] * base // batch))
        done += 1
        emit("progress", done=done, total=total, item=model)
    emit("end")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
