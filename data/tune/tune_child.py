# gpudoctor tune's framework child: timed PyTorch training steps in the user's own environment.
#
# Run by `gpudoctor tune` with the chosen interpreter as `python - ARGS` (this text arrives on stdin;
# it is compiled into the binary from data/tune/tune_child.py). Synthetic data only, nothing is
# downloaded. It writes one JSON object per line on stdout (docs/tune.md, "Protocol"):
#   hello     torch version, backend (cuda / rocm / cpu), device name, bf16 support
#   begin     before each measurement (a hang or a crash is blamed on the last begin)
#   result    a timed run: model, precision, channels_last, benchmark, batch, samples/s, loss
#   search    the largest batch that fits, with every batch tried and whether it fitted
#   loader    the input pipeline: DataLoader images/s at a worker count, pinned or not
#   skip      a measurement left out, with the reason
#   progress  done / total, for the parent's progress line
#   error     something failed (code "no_gpu" when there is no usable GPU)
#   end       the last line of a complete run
# With --allocator-plan the child is the allocator's second run (docs/tune.md, "The allocator"): the parent
# started it with PYTORCH_CUDA_ALLOC_CONF (PYTORCH_HIP_ALLOC_CONF on ROCm) set, because the caching
# allocator reads its settings once, when it starts; it repeats only the batch search and the large batch.
# With --library-plan the child is one library knob's run (docs/tune.md, "The library knobs"): the parent
# started it with the knob's variable set (TunableOp, the cuBLASLt workspace, hipBLASLt, MIOpen's find mode),
# which the library reads when it starts; it repeats the first run's figure, without a batch search.
# Anything else on stdout is ignored by the parent; tracebacks go to stderr.
import argparse
import contextlib
import gc
import json
import math
import os
import sys
import time
import traceback
import warnings


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
    p.add_argument("--no-loader", action="store_true", help="leave out the DataLoader measurement")
    p.add_argument("--loader-only", action="store_true", help="test aid: the DataLoader measurement alone")
    p.add_argument("--user-model", default="",
                   help="MODULE:FUNCTION or PATH.py:FUNCTION returning (model, make_batch, loss_fn): model 'user'")
    p.add_argument("--compile-modes", default="default",
                   help="torch.compile modes to time (comma-separated; empty: none). max-autotune takes minutes")
    p.add_argument("--no-extra-knobs", action="store_true",
                   help="leave out TF32, the fused optimizer, the attention backends, torch.compile and "
                   "activation checkpointing")
    p.add_argument("--allocator-plan", default="",
                   help="JSON: the models to search and time again under the allocator setting in the environment")
    p.add_argument("--library-plan", default="",
                   help="JSON: the models to time again under a library knob's variable in the environment")
    return p.parse_args(argv)


# Sizes: image side, base batch (the guides' batch: the generic run), warm-up and timed steps at the base
# batch, the fewest timed steps of a knob run and of the large-batch run, batch search cap, transformer shape.
# --quick keeps the 224-pixel images: at 96 pixels even the knob batch left a big GPU waiting on Python.
SIZES = {
    "full": dict(image=224, batch=32, warmup=10, steps=50, knob_steps=4, large_steps=10, cap=4096, d_model=1024,
                 heads=16, ff=4096, layers=2, seq=512, vocab=8192, tokens_batch=8, tokens_cap=1024),
    "quick": dict(image=224, batch=32, warmup=3, steps=8, knob_steps=3, large_steps=3, cap=2048, d_model=512,
                  heads=8, ff=2048, layers=1, seq=256, vocab=4096, tokens_batch=8, tokens_cap=1024),
    "tiny": dict(image=32, batch=2, warmup=1, steps=2, knob_steps=2, large_steps=2, cap=16, d_model=32, heads=2,
                 ff=64, layers=1, seq=16, vocab=64, tokens_batch=2, tokens_cap=16),
}

# A change smaller than this (in percent) is within the noise of a short timed run: the floor of the knob
# table, kTuneNoisePercent in src/tune/tune_advice.h (tests/unit/tune_test.cpp holds the two equal).
NOISE_PERCENT = 3.0


# The input pipeline: how many DataLoader workers keep the GPU fed. A synthetic in-memory dataset of JPEG
# images (decoded and augmented on the CPU as a real ImageNet loader does: decode, random crop, flip,
# scale, normalize); nothing is read from disk or downloaded. Per setting: a warm-up batch (the workers
# start), then batches until LOADER_SECONDS have passed (at least LOADER_MIN_BATCHES), each copied to the
# device. Worker counts 0, 2, 4, 8, ... up to the CPU count with pin_memory off, then pin_memory on at the
# fastest count (GPU only).
LOADER = {"full": dict(side=224, stored=256, images=256, batch=32, seconds=2.0),
          "tiny": dict(side=32, stored=40, images=16, batch=4, seconds=0.3)}
LOADER_MIN_BATCHES = 3


class SyntheticJpegs:
    """A map-style dataset of `images` random pictures held as JPEG bytes (raw uint8 where torchvision
    cannot encode JPEG), decoded and augmented per sample on the CPU. Indexes wrap around."""

    def __init__(self, torch, spec, length):
        import torchvision
        self.side = spec["side"]
        self.length = length
        g = torch.Generator().manual_seed(0)
        raw = [torch.randint(0, 256, (3, spec["stored"], spec["stored"]), dtype=torch.uint8, generator=g)
               for _ in range(spec["images"])]
        try:
            self.items = [torchvision.io.encode_jpeg(x, quality=90) for x in raw]
            self.decode = "jpeg"
        except Exception:  # noqa: BLE001 - a torchvision built without libjpeg
            self.items = raw
            self.decode = "raw"

    def __len__(self):
        return self.length

    def __getitem__(self, index):
        import torch
        import torchvision
        item = self.items[index % len(self.items)]
        img = torchvision.io.decode_jpeg(item) if self.decode == "jpeg" else item.clone()
        g = torch.Generator().manual_seed(index)
        top, left = (int(v) for v in torch.randint(0, img.shape[1] - self.side + 1, (2,), generator=g))
        img = img[:, top:top + self.side, left:left + self.side]
        if bool(torch.randint(0, 2, (1,), generator=g)):
            img = img.flip(2)
        x = img.float().div_(255)
        x = (x - torch.tensor([0.485, 0.456, 0.406]).view(3, 1, 1)) / torch.tensor([0.229, 0.224, 0.225]).view(3, 1, 1)
        return x, index % 1000


def worker_counts(cpus, size):
    counts = [0]
    w = 2
    while w <= cpus and (size != "tiny" or w <= 2):
        counts.append(w)
        w *= 2
    return counts


def loader_rate(bench, spec, dataset, workers, pin):
    """images/s through DataLoader(num_workers=workers, pin_memory=pin) onto the device."""
    torch = bench.torch
    loader = torch.utils.data.DataLoader(dataset, batch_size=spec["batch"], num_workers=workers, pin_memory=pin,
                                         shuffle=False, drop_last=True)
    it = iter(loader)
    x, y = next(it)  # warm-up: the workers start
    x.to(bench.device, non_blocking=pin)
    bench.sync()
    images = 0
    batches = 0
    start = time.perf_counter()
    for x, y in it:
        x.to(bench.device, non_blocking=pin)
        y.to(bench.device, non_blocking=pin)
        images += x.shape[0]
        batches += 1
        if batches >= LOADER_MIN_BATCHES and time.perf_counter() - start >= spec["seconds"]:
            break
    bench.sync()
    seconds = time.perf_counter() - start
    del it, loader
    return images, seconds


def measure_loader(bench, size_name):
    """Emits a loader line per setting (or a skip). Returns nothing: the parent compares with the GPU."""
    import multiprocessing
    spec = LOADER.get(size_name)
    if spec is None:
        emit("skip", item="loader", reason="the DataLoader is measured in the full run only (not with --quick)")
        return
    cpus = os.cpu_count() or 1
    counts = worker_counts(cpus, size_name)
    if "fork" not in multiprocessing.get_all_start_methods():
        # Workers started by spawn import the main script again: one read from stdin cannot be.
        emit("skip", item="loader/workers", reason="DataLoader workers need the fork start method here (this "
             "platform spawns them); only 0 workers measured")
        counts = [0]
    dataset = SyntheticJpegs(bench.torch, spec, length=10 ** 6)
    pin_ok = bench.gpu

    def one(workers, pin):
        item = "loader/%d workers/%s" % (workers, "pinned" if pin else "pageable")
        emit("begin", id=item)
        try:
            images, seconds = loader_rate(bench, spec, dataset, workers, pin)
            emit("loader", item=item, workers=workers, pin_memory=pin, batch=spec["batch"], images=images,
                 seconds=seconds, images_per_s=images / seconds if seconds > 0 else 0.0, decode=dataset.decode,
                 image=spec["side"], cpus=cpus)
            return images / seconds if seconds > 0 else 0.0
        except Exception as e:  # noqa: BLE001
            emit("error", item=item, code="failed", message=first_line(e))
            return 0.0

    rates = {w: one(w, False) for w in counts}
    if pin_ok:
        best = max(rates, key=lambda w: rates[w])
        one(best, True)


# The knobs timed on top of the settings chosen from the knob runs (docs/tune.md, "The other knobs"): TF32
# for fp32 matmuls and convolutions, the fused optimizer step, the attention backend of
# scaled_dot_product_attention (the transformer), and torch.compile. NO_EXTRAS is every one off.
# "checkpoint" (activation checkpointing) is never one of the knob batch's extras: it is timed at a batch larger
# than the large batch (measure_checkpointing).
NO_EXTRAS = {"tf32": False, "fused": False, "sdpa": "", "compile": "", "checkpoint": False}
SDPA_BACKENDS = ("flash", "efficient", "math")


def extras_suffix(extras):
    """The part of an item that names the extra knobs of a run ("" when none): "/tf32/fused/sdpa-flash"."""
    parts = [k for k in ("tf32", "fused") if extras.get(k)]
    if extras.get("sdpa"):
        parts.append("sdpa-" + extras["sdpa"])
    if extras.get("compile"):
        parts.append("compile-" + extras["compile"])
    if extras.get("checkpoint"):
        parts.append("checkpoint")
    return "".join("/" + p for p in parts)


def set_tf32(torch, on):
    """TF32 on: float32 matmuls may use TF32 tensor cores; off is torch's default (full fp32 matmuls). cuDNN
    convolutions take TF32 by default either way and are left alone. One API only: torch >= 2.9 raises a
    RuntimeError when the legacy flags (allow_tf32, set_float32_matmul_precision) and the new fp32_precision
    are mixed, and torch.compile reads the new one there."""
    matmul = torch.backends.cuda.matmul
    try:  # torch's matmul flags object raises AssertionError (not AttributeError) for a name it lacks
        new_api = hasattr(matmul, "fp32_precision")
    except Exception:  # noqa: BLE001
        new_api = False
    if new_api:
        matmul.fp32_precision = "tf32" if on else "ieee"
    elif hasattr(torch, "set_float32_matmul_precision"):
        torch.set_float32_matmul_precision("high" if on else "highest")
    else:
        matmul.allow_tf32 = on


def sdpa_context(torch, backend):
    """A factory of the context that restricts scaled_dot_product_attention to `backend` ("" : torch's own
    choice): torch.nn.attention.sdpa_kernel (torch >= 2.3), else torch.backends.cuda.sdp_kernel."""
    if not backend:
        return contextlib.nullcontext
    try:
        import torch.nn.attention as attention  # a submodule that `import torch` may not load
    except ImportError:
        attention = None
    if attention is not None and hasattr(attention, "sdpa_kernel"):
        kind = {"flash": attention.SDPBackend.FLASH_ATTENTION, "efficient": attention.SDPBackend.EFFICIENT_ATTENTION,
                "math": attention.SDPBackend.MATH}[backend]
        return lambda: attention.sdpa_kernel(kind)
    return lambda: torch.backends.cuda.sdp_kernel(enable_flash=backend == "flash",
                                                  enable_mem_efficient=backend == "efficient",
                                                  enable_math=backend == "math")


def version_tuple(text):
    out = []
    for part in str(text).split("+")[0].split(".")[:2]:
        digits = "".join(c for c in part if c.isdigit())
        out.append(int(digits) if digits else 0)
    return tuple(out)


def tf32_skip(bench):
    """None when TF32 can change this device's fp32 matmuls, else the reason it is not measured."""
    torch = bench.torch
    if not bench.gpu:
        return "TF32 is an NVIDIA tensor-core format (compute capability 8.0 and later): not on the CPU"
    if bench.backend == "rocm":
        return "ROCm: torch's allow_tf32 flags select NVIDIA's TF32 tensor cores; this ROCm build has no TF32 " \
            "path for them (the gfx94x XF32 mode is not measured)"
    major, minor = torch.cuda.get_device_capability(bench.device)
    if major < 8:
        return "TF32 needs compute capability 8.0 (Ampere) or later; this GPU is %d.%d" % (major, minor)
    return None


def fused_skip(bench):
    """None when torch.optim.SGD takes fused=True on this device, else why not (the TypeError or error)."""
    torch = bench.torch
    try:
        p = torch.nn.Parameter(torch.zeros(4, device=bench.device))
        opt = torch.optim.SGD([p], lr=1e-3, momentum=0.9, fused=True)
        p.grad = torch.ones_like(p)
        opt.step()
        return None
    except Exception as e:  # noqa: BLE001 - torch 1.13's SGD: TypeError, an unexpected keyword argument
        return "torch %s's SGD does not take fused=True here (%s)" % (torch.__version__, first_line(e))


def sdpa_skip(bench, precision, backend):
    """None when scaled_dot_product_attention runs forward and backward with `backend` at `precision`'s dtype
    and the transformer's head size, else why not (flash takes no fp32)."""
    torch = bench.torch
    F = torch.nn.functional
    if not hasattr(F, "scaled_dot_product_attention"):
        return "torch %s has no scaled_dot_product_attention (torch 2.0 and later)" % torch.__version__
    if not bench.gpu:
        return "the attention backends are GPU kernels; the CPU has only its own"
    s = bench.size
    dtype = {"fp16": torch.float16, "bf16": torch.bfloat16}.get(precision, torch.float32)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            q = torch.randn(1, s["heads"], 64, s["d_model"] // s["heads"], device=bench.device, dtype=dtype,
                            requires_grad=True)
            with sdpa_context(torch, backend)():
                F.scaled_dot_product_attention(q, q, q).sum().backward()
        return None
    except Exception as e:  # noqa: BLE001 - "No available kernel" and its reasons
        return "%s attention does not run %s here (%s)" % (backend, precision, first_line(e))


def compile_skip(bench, args):
    """None when torch.compile is timed here, else why not."""
    torch = bench.torch
    if not hasattr(torch, "compile"):
        return "torch %s has no torch.compile (torch 2.0 and later)" % torch.__version__
    if sys.platform == "win32":
        return "torch.compile's inductor backend does not support Windows here"
    if not bench.gpu:
        return "not measured on the CPU: compiling takes minutes there and the tiny CPU runs are a test aid"
    if args.size == "quick":
        return "--quick leaves torch.compile out: compiling one model takes longer than the quick run's minute"
    try:
        import triton  # noqa: F401
    except Exception as e:  # noqa: BLE001
        return "triton is not importable (%s): torch.compile's GPU backend needs it" % first_line(e)
    return None


def measure_extras(bench, size, args, model, settings, rate, batch, base, compile_modes, progress):
    """The extras chosen (time_extras)."""
    return time_extras(bench, size, args, model, settings, rate, batch, base, compile_modes, progress)[0]


def time_extras(bench, size, args, model, settings, rate, batch, base, compile_modes, progress):
    """The extra knobs on top of `settings` (chosen from the knob runs) at the knob batch, each judged against
    the settings chosen so far (chosen_extras holds the same rules, as src/tune/tune_advice.cpp): TF32 (fp32
    only), the fused optimizer, the attention backends (transformer), torch.compile. Returns (the extras
    chosen, their rates as chosen_extras takes them)."""
    precision, channels_last, benchmark = settings
    warmup, steps = steps_at(size, base, batch, size["knob_steps"])

    def timed(name, extras, runs_warmup=warmup, run_precision=precision, layout=(channels_last, benchmark),
              known_cause=""):
        got = measure(bench, size, model, run_precision, layout[0], layout[1], batch, "knob", runs_warmup, steps,
                      extras=extras)
        if not got:  # the row says so (its error line is a problem; the saved JSON keeps skips, not errors)
            emit("skip", item="%s/knob/%s" % (model, name),
                 reason="the run failed or its loss was not finite (see the problems)" + known_cause)
        progress.step(model)
        return got

    def skip(name, reason):
        emit("skip", item="%s/knob/%s" % (model, name), reason=reason)
        progress.step(model)

    rates = {}
    chosen = dict(NO_EXTRAS)
    reason = tf32_skip(bench)
    if reason:
        skip("tf32", reason)
    elif precision != "fp32":
        # For fp32 training only (the row's figure): fp32 with TF32 against fp32, outside the chain.
        timed("tf32", dict(NO_EXTRAS, tf32=True), run_precision="fp32", layout=(False, False))
    else:
        rates["tf32"] = timed("tf32", dict(chosen, tf32=True))
    chosen = chosen_extras(rate, rates, ("tf32",))
    reason = fused_skip(bench)
    if reason:
        skip("fused", reason)
    else:
        # Seen on an H100 with torch 2.11 (ResNet-50, fp16): fused SGD advances its momentum on the steps
        # GradScaler must skip, and the first overflow poisons it (github.com/LibreYOLO/libreyolo/pull/771).
        fp16_cause = ("; under fp16's GradScaler, SGD(fused=True) of some torch releases does not skip the steps "
                      "the scaler finds overflowing (its momentum takes the inf): keep the default SGD with fp16, "
                      "or train in bf16") if precision == "fp16" else ""
        rates["fused"] = timed("fused", dict(chosen, fused=True), known_cause=fp16_cause)
    chosen = chosen_extras(rate, rates, ("tf32", "fused"))
    if model == "transformer":
        for backend in SDPA_BACKENDS:
            reason = sdpa_skip(bench, precision, backend)
            if reason:
                skip("sdpa-" + backend, reason)
            else:
                rates["sdpa-" + backend] = timed("sdpa-" + backend, dict(chosen, sdpa=backend))
    chosen = chosen_extras(rate, rates, ("tf32", "fused", "sdpa"))
    reason = compile_skip(bench, args) if compile_modes else "no torch.compile mode asked for"
    for mode in compile_modes:
        if reason:
            skip("compile-" + mode, reason)
        else:
            # reduce-overhead records CUDA graphs after a warm-up run: three untimed steps at least.
            rates["compile-" + mode] = timed("compile-" + mode, dict(chosen, compile=mode), max(warmup, 3))
    if reason and not compile_modes:
        skip("compile-default", reason)
    return chosen_extras(rate, rates, ("tf32", "fused", "sdpa", "compile")), rates


def chosen_rate(rate, rates, chosen):
    """The units/s of the knob run with the extras `chosen` (chosen_extras' answer from `rate` and `rates`):
    the run of the last stage chosen, else `rate`."""
    current = rate
    for stage in ("tf32", "fused", "sdpa", "compile"):
        if chosen.get(stage) is True:
            current = rates[stage]
        elif chosen.get(stage):
            current = rates["%s-%s" % (stage, chosen[stage])]
    return current


def chosen_extras(rate, rates, stages):
    """The extra knobs chosen from their rates ({"tf32": units/s, "fused": ..., "sdpa-flash": ...,
    "compile-default": ...}; a knob not measured is missing), each against the settings chosen before it
    (`rate` is the knob run with the chosen settings): TF32, then the fused optimizer, then the fastest
    attention backend that helps, then the fastest torch.compile mode that helps. `stages` are the stages
    judged so far. Judged as src/tune/tune_advice.cpp judges them (tests/unit/tune_child_test.cpp)."""
    chosen = dict(NO_EXTRAS)
    current = rate
    for stage in stages:
        if stage in ("tf32", "fused"):
            if helps(rates.get(stage), current):
                chosen[stage] = True
                current = rates[stage]
            continue
        names = SDPA_BACKENDS if stage == "sdpa" else COMPILE_MODES
        best = None
        for name in names:
            got = rates.get("%s-%s" % (stage, name))
            if helps(got, current) and (best is None or got > rates["%s-%s" % (stage, best)]):
                best = name
        if best is not None:
            chosen[stage] = best
            current = rates["%s-%s" % (stage, best)]
    return chosen


COMPILE_MODES = ("default", "reduce-overhead", "max-autotune")


# The library knobs the parent times in children of their own (their variables are read when the libraries
# start): which apply to this backend. The others are said here, with the reason (src/tune/tune_library_knobs.cpp
# holds the same list).
LIBRARY_KNOBS = (("tunableop", ("cuda", "rocm")), ("cublaslt-workspace", ("cuda",)), ("hipblaslt", ("rocm",)),
                 ("miopen-find-mode", ("rocm",)))


def library_knob_skips(bench, model):
    """The library knobs that do not apply to this backend, each a skip line with the reason."""
    for name, backends in LIBRARY_KNOBS:
        if bench.backend not in backends:
            where = "ROCm only" if backends == ("rocm",) else ("CUDA only" if backends == ("cuda",) else "GPU only")
            emit("skip", item="%s/knob/%s" % (model, name), reason="%s (this backend is %s)" % (where, bench.backend))


# Activation checkpointing (docs/tune.md, "Activation checkpointing"): the forward pass keeps only the input of
# each checkpointed segment and recomputes the rest in the backward pass, trading compute for memory, so a batch
# that does not fit without it may fit with it. Timed only where that can pay: the largest batch is
# memory-bound and the large batch was faster than the knob batch.


def checkpoint_reentrant_free(torch):
    """Whether torch.utils.checkpoint.checkpoint takes use_reentrant (torch >= 1.11). The reentrant variant
    gives a segment's parameters no gradient when its input needs none (the images, the token ids)."""
    import importlib
    import inspect
    if getattr(torch, "__name__", "") == "torch":
        with contextlib.suppress(ImportError):
            importlib.import_module("torch.utils.checkpoint")  # a submodule that `import torch` may not load
    checkpoint = getattr(getattr(getattr(torch, "utils", None), "checkpoint", None), "checkpoint", None)
    try:
        return checkpoint is not None and "use_reentrant" in inspect.signature(checkpoint).parameters
    except (TypeError, ValueError):
        return False


def checkpoint_segments(torch, model_name, model):
    """(what runs before the checkpointed segments, the segments, what runs after them) of a model tune knows
    how to cut: ResNet-50's 16 residual blocks, the transformer's encoder layers, a user's nn.Sequential in
    about the square root of its length segments."""
    nn = torch.nn
    if model_name == "resnet50":
        stem = nn.Sequential(model.conv1, model.bn1, model.relu, model.maxpool)
        blocks = [block for layer in (model.layer1, model.layer2, model.layer3, model.layer4) for block in layer]
        return stem, blocks, lambda x: model.fc(torch.flatten(model.avgpool(x), 1))
    if model_name == "transformer":
        norm = model.blocks.norm if model.blocks.norm is not None else nn.Identity()
        return model.embed, list(model.blocks.layers), lambda x: model.head(norm(x))
    children = list(model)
    length = max(1, -(-len(children) // max(1, round(math.sqrt(len(children))))))
    return nn.Identity(), [nn.Sequential(*children[i:i + length]) for i in range(0, len(children), length)], \
        nn.Identity()


def checkpointed(torch, model_name, model):
    """`model`'s forward pass with each of its segments (checkpoint_segments) under
    torch.utils.checkpoint.checkpoint(use_reentrant=False)."""
    from torch.utils.checkpoint import checkpoint
    before, segments, after = checkpoint_segments(torch, model_name, model)

    def forward(x):
        x = before(x)
        for segment in segments:
            x = checkpoint(segment, x, use_reentrant=False)
        return after(x)
    return forward


def checkpoint_skip(bench, args, model, search, large, knob_rate):
    """None when activation checkpointing is timed for `model`, else why not. `search`: (largest, failed_at,
    cap) of the batch search, None without one; `large`: (batch, units/s) of the large-batch run, None when
    none was timed; `knob_rate`: the knob run with the chosen settings."""
    torch = bench.torch
    if args.size == "quick":
        return "--quick leaves it out: it needs the large batch and a second search, with checkpointing"
    if args.no_extra_knobs:
        return "--no-extra-knobs leaves it out"
    if model == "user" and not isinstance(bench.user["model"], torch.nn.Sequential):
        return "your model is not an nn.Sequential: tune cannot know where to cut its forward pass into " \
            "checkpointed segments (wrap your own blocks in torch.utils.checkpoint.checkpoint and time that)"
    if not checkpoint_reentrant_free(torch):
        return "torch %s's torch.utils.checkpoint has no use_reentrant=False (torch 1.11 and later); the " \
            "reentrant variant gives no gradient to a segment whose input needs none" % torch.__version__
    if not bench.gpu and bench.plant_ckpt is None:
        return "not measured on the CPU: checkpointing trades compute for GPU memory, and the CPU's batch is " \
            "bounded by host memory"
    if search is None or not search[0]:
        return "no batch search (--no-search, or it failed): no largest batch to go beyond"
    if search[1] is None:
        return "the largest batch is not memory-bound: the search reached the cap (batch %d)" % search[2]
    if large is None or not large[1]:
        return "no large batch was timed (the recommended batch is the knob batch, or its run failed)"
    # On the CPU with a planted limit (the tests' stand-in for a GPU whose memory binds) the two tiny runs'
    # speeds are timing noise on a shared machine: the plan is what is checked there, not the speed-up.
    if not helps(large[1], knob_rate) and (bench.gpu or bench.plant_ckpt is None):
        return "the large batch was not faster than the knob batch, so a larger batch would not help"
    return None


def checkpoint_batch(bench, model, settings, run_extras, search, large):
    """(the batch to time checkpointing at, or 0, and why not when 0): the largest batch that fits with it,
    doubling from twice the large batch up to eight times it (the search's cap at most), then bisecting only
    until the batch recommended from it (recommended_batch: the same headroom) is decided; that batch when it
    is above the large batch."""
    precision, channels_last, _ = settings
    cap = min(search[2], 8 * large)
    if cap < 2 * large:
        return 0, "the search's cap (batch %d) leaves no room for twice the large batch (%d)" % (search[2], large)
    base = bench.base_batch(model)
    fitted, failed_at, tried = largest_batch(
        lambda b: bench.fits(model, precision, channels_last, b, extras=run_extras), cap, False,
        start=2 * large, decided=recommended_decided(base))
    batch = recommended_batch(fitted, base)
    if batch > large:
        return batch, ""
    seen = ", ".join("%d %s" % (b, "fitted" if ok else "did not") for b, ok in tried)
    return 0, "no larger batch fits with it with the large batch's headroom (a quarter): tried %s; the large " \
        "batch is %d (the largest without it: %d)" % (seen, large, search[0])


def measure_checkpointing(bench, size, args, model, settings, extras, search, large, knob_rate, progress):
    """Activation checkpointing where it can pay (checkpoint_skip), at the batch checkpoint_batch finds, with
    the large batch's settings (role "checkpointing"). With torch.compile chosen, both the checkpointed run and
    the large batch again are eager (role "checkpointing", checkpointing off): compiling once more would cost
    as much as the rest of the model's runs. A skip line says why when it is not timed."""
    item = "%s/knob/checkpointing" % model
    reason = checkpoint_skip(bench, args, model, search, large, knob_rate)
    if reason:
        emit("skip", item=item, reason=reason)
        return
    emit("begin", id=item)
    run_extras = dict(extras, compile="", checkpoint=True)
    batch, reason = checkpoint_batch(bench, model, settings, run_extras, search, large[0])
    bench.free()
    if not batch:
        emit("skip", item=item, reason=reason)
        return
    precision, channels_last, benchmark = settings
    base = bench.base_batch(model)
    runs = [(large[0], dict(extras, compile=""))] if extras.get("compile") else []
    runs.append((batch, run_extras))
    progress.total += len(runs)
    for run_batch, run in runs:
        warmup, steps = steps_at(size, base, run_batch, size["large_steps"])
        if measure(bench, size, model, precision, channels_last, benchmark, run_batch, "checkpointing", warmup,
                   steps, oom_retry=True, extras=run) is None:
            emit("skip", item=item, reason="out of memory at batch %d in the timed run (the search's one step "
                 "fitted)" % run_batch)
        progress.step(model)


def unpack_user_model(built):
    """The user function's answer: a dict with model, make_batch, loss_fn (or loss), or a (model, make_batch,
    loss_fn) tuple. A TypeError that says what is expected otherwise."""
    if isinstance(built, dict):
        parts = (built.get("model"), built.get("make_batch"), built.get("loss_fn", built.get("loss")))
    elif isinstance(built, (tuple, list)) and len(built) == 3:
        parts = tuple(built)
    else:
        raise TypeError("the function must return (model, make_batch, loss_fn) or a dict with those keys, not %s"
                        % type(built).__name__)
    model, make_batch, loss_fn = parts
    if not hasattr(model, "parameters") or not callable(model):
        raise TypeError("the model must be a torch.nn.Module, not %s" % type(model).__name__)
    if not callable(make_batch) or not callable(loss_fn):
        raise TypeError("make_batch(batch_size, device) -> (inputs, targets) and loss_fn(outputs, targets) must be "
                        "callable")
    return {"model": model, "make_batch": make_batch, "loss_fn": loss_fn}


def load_user_model(bench, spec):
    """The user's model from MODULE:FUNCTION (imported with the working directory on sys.path) or
    PATH.py:FUNCTION: the function, called, and one batch of 2 made (are its inputs 4-D images?). None when
    any of it raises: the traceback goes to stderr and an error line (code user_model) says what failed."""
    import importlib
    import importlib.util
    target, _, function = spec.rpartition(":")
    try:
        if not target or not function:
            raise ValueError("%r: give MODULE:FUNCTION or PATH.py:FUNCTION" % spec)
        if target.endswith(".py") or "/" in target or os.sep in target:
            path = os.path.abspath(target)
            sys.path.insert(0, os.path.dirname(path))
            module_spec = importlib.util.spec_from_file_location("gpudoctor_user_model", path)
            if module_spec is None:
                raise ImportError("cannot load %s as a Python file" % path)
            module = importlib.util.module_from_spec(module_spec)
            module_spec.loader.exec_module(module)
        else:
            sys.path.insert(0, os.getcwd())
            module = importlib.import_module(target)
        build = getattr(module, function)
        user = unpack_user_model(build())
        user["build"] = build
        x, _ = user["make_batch"](2, bench.device)
        user["fourd"] = getattr(x, "dim", lambda: 0)() == 4
        return user
    except BaseException as e:  # noqa: BLE001 - the user's code: a finding, never a crash of the child
        traceback.print_exc(file=sys.stderr)
        emit("error", item="user/setup", code="user_model", message="%s: %s" % (spec, first_line(e)))
        return None


def is_oom(e):
    import torch
    oom_type = getattr(torch.cuda, "OutOfMemoryError", None)
    if oom_type is not None and isinstance(e, oom_type):
        return True
    return isinstance(e, RuntimeError) and "out of memory" in str(e).lower()


class Planted(RuntimeError):
    pass


def planted_limit(name):
    # Test aids: GPUDOCTOR_TUNE_PLANT_OOM_ABOVE=N makes every step above batch N fail as an out-of-memory
    # error would, so the search can be checked without filling a GPU; GPUDOCTOR_TUNE_PLANT_KNOB_OOM_ABOVE=N
    # does the same to the knob runs only (fp32 needs more memory than the search's mixed precision), and
    # GPUDOCTOR_TUNE_PLANT_CKPT_OOM_ABOVE=N to the runs with activation checkpointing (which fit a larger batch;
    # set, it also lets the CPU measure checkpointing: see checkpoint_skip).
    text = os.environ.get(name, "")
    return int(text) if text.isdigit() else None


class Bench:
    def __init__(self, torch, device, size):
        self.torch = torch
        self.device = device
        self.size = size
        self.gpu = device.type == "cuda"
        self.backend = "cpu" if not self.gpu else ("rocm" if getattr(torch.version, "hip", None) else "cuda")
        self.tf32_set = False  # a run has set the TF32 flag (set_tf32): each run after it sets it again
        self.user = None  # the user's model (load_user_model), measured as model "user"
        self.plant = planted_limit("GPUDOCTOR_TUNE_PLANT_OOM_ABOVE")
        self.plant_knob = planted_limit("GPUDOCTOR_TUNE_PLANT_KNOB_OOM_ABOVE")
        self.plant_ckpt = planted_limit("GPUDOCTOR_TUNE_PLANT_CKPT_OOM_ABOVE")

    def image_like(self, model):
        """Whether channels_last and cudnn.benchmark apply: ResNet-50, and a user model with 4-D inputs."""
        return model == "resnet50" or (model == "user" and self.user is not None and self.user["fourd"])

    def per_sample(self, model):
        return self.size["seq"] if model == "transformer" else 1

    def unit(self, model):
        return {"resnet50": "images/s", "transformer": "tokens/s"}.get(model, "samples/s")

    def base_batch(self, model):
        return self.size["tokens_batch"] if model == "transformer" else self.size["batch"]

    def cap(self, model):
        return self.size["tokens_cap"] if model == "transformer" else self.size["cap"]

    def sync(self):
        if self.gpu:
            self.torch.cuda.synchronize(self.device)

    def free(self):
        gc.collect()
        if self.gpu:
            self.torch.cuda.empty_cache()

    def reset_peaks(self):
        if self.gpu:
            self.torch.cuda.reset_peak_memory_stats(self.device)

    def peaks(self):
        """(allocated, reserved) peak bytes since reset_peaks: reserved far above allocated is fragmentation."""
        if not self.gpu:
            return None, None
        return int(self.torch.cuda.max_memory_allocated(self.device)), \
            int(self.torch.cuda.max_memory_reserved(self.device))

    def build(self, model_name, channels_last):
        torch = self.torch
        s = self.size
        if model_name == "user":
            # The user's function again: a fresh model (and its batch maker and loss) per run.
            self.user.update(unpack_user_model(self.user["build"]()))
            model = self.user["model"].to(self.device)
            if channels_last:
                model = model.to(memory_format=torch.channels_last)
            return model
        if model_name == "resnet50":
            import torchvision
            with self.building():
                model = torchvision.models.resnet50(weights=None) \
                    if hasattr(torchvision.models, "ResNet50_Weights") else torchvision.models.resnet50(pretrained=False)
            model = model.to(self.device)
            if channels_last:
                model = model.to(memory_format=torch.channels_last)
            return model
        with self.building():
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

    def building(self):
        """The context a built-in model is built in: on the device itself where torch.device is a context
        manager (torch >= 2.0), so the random initialization of ResNet-50's 25M weights runs on the GPU
        rather than the CPU (each run and each batch-search try builds a fresh model); else nothing."""
        return self.device if self.gpu and hasattr(self.device, "__enter__") else contextlib.nullcontext()

    def data(self, model_name, batch, channels_last):
        torch = self.torch
        s = self.size
        g = torch.Generator(device="cpu").manual_seed(batch)
        if model_name == "user":
            x, y = self.user["make_batch"](batch, self.device)
            if channels_last and getattr(x, "dim", lambda: 0)() == 4:
                x = x.contiguous(memory_format=torch.channels_last)
            return x, y
        if model_name == "resnet50":
            x = torch.randn(batch, 3, s["image"], s["image"], generator=g).to(self.device)
            if channels_last:
                x = x.contiguous(memory_format=torch.channels_last)
            y = torch.randint(0, 1000, (batch,), generator=g).to(self.device)
            return x, y
        x = torch.randint(0, s["vocab"], (batch, s["seq"]), generator=g).to(self.device)
        y = torch.randint(0, s["vocab"], (batch, s["seq"]), generator=g).to(self.device)
        return x, y

    def run(self, model_name, precision, channels_last, benchmark, batch, warmup, steps, role=None, extras=None):
        """Trains `steps` timed steps after `warmup` untimed ones; returns (seconds, last loss, seconds of the
        warm-up steps). `extras` (EXTRAS' keys) adds TF32, the fused optimizer, an attention backend and
        torch.compile; every run sets TF32 and the attention backend, so none inherits the last one's."""
        torch = self.torch
        extras = dict(NO_EXTRAS, **(extras or {}))
        plant = self.plant_knob if role == "knob" and self.plant_knob is not None else self.plant
        if extras["checkpoint"] and self.plant_ckpt is not None:
            plant = self.plant_ckpt
        torch.backends.cudnn.benchmark = benchmark
        if extras["tf32"] or self.tf32_set:
            set_tf32(torch, extras["tf32"])  # never touched until a TF32 run: torch's default stays as it was
            self.tf32_set = True
        model = self.build(model_name, channels_last)
        opt = torch.optim.SGD(model.parameters(), lr=1e-3, momentum=0.9, **({"fused": True} if extras["fused"] else {}))
        forward = checkpointed(torch, model_name, model) if extras["checkpoint"] else model
        compile_mode = extras["compile"]
        reset = None
        if compile_mode:
            # A fresh start per compiled run: each mode and batch compiles anew (and dynamo's recompile limit
            # is not reached by the fresh models of the earlier runs).
            reset = getattr(getattr(torch, "_dynamo", None), "reset", None)
            if reset is not None:
                reset()
            forward = torch.compile(forward, mode=None if compile_mode == "default" else compile_mode)
        mark_step = getattr(getattr(torch, "compiler", None), "cudagraph_mark_step_begin", None) \
            if compile_mode == "reduce-overhead" else None
        attention = sdpa_context(torch, extras["sdpa"])
        x, y = self.data(model_name, batch, channels_last)
        dtype = {"fp16": torch.float16, "bf16": torch.bfloat16}.get(precision)
        scaler = None
        if precision == "fp16":
            amp = getattr(torch, "amp", None)
            scaler = amp.GradScaler("cuda") if amp is not None and hasattr(amp, "GradScaler") \
                else torch.cuda.amp.GradScaler()
        loss_fn = torch.nn.CrossEntropyLoss()

        def step():
            if plant is not None and batch > plant:
                raise Planted("CUDA out of memory (planted above batch %d by the test)" % plant)
            if mark_step is not None:
                mark_step()  # CUDA graphs: a new training step, so the last step's outputs may be overwritten
            opt.zero_grad(set_to_none=True)
            autocast = torch.autocast(device_type=self.device.type, dtype=dtype) if dtype is not None \
                else contextlib.nullcontext()
            with autocast, attention():
                out = forward(x)
                if model_name == "user":
                    loss = self.user["loss_fn"](out, y)
                else:
                    if model_name != "resnet50":
                        out = out.reshape(-1, out.shape[-1])
                    loss = loss_fn(out, y.reshape(-1))
            with attention():  # the backward pass takes the same attention kernels
                if scaler is not None:
                    scaler.scale(loss).backward()
                    scaler.step(opt)
                    scaler.update()
                else:
                    loss.backward()
                    opt.step()
            return loss

        warm_start = time.perf_counter()
        for _ in range(warmup):
            step()
        self.sync()
        start = time.perf_counter()
        loss = None
        for _ in range(steps):
            loss = step()
        self.sync()
        seconds = time.perf_counter() - start
        value = float(loss.detach().float().item())
        if extras["tf32"]:
            set_tf32(torch, False)
        if compile_mode and reset is not None:
            del forward, model, opt
            reset()  # the compiled graphs (and reduce-overhead's CUDA graph memory) go with the run
        return seconds, value, start - warm_start

    def fits(self, model_name, precision, channels_last, batch, extras=None):
        """One warm-up and one step at `batch`; False on an out-of-memory error, after freeing it."""
        failed = False
        try:
            self.run(model_name, precision, channels_last, False, batch, 1, 1, extras=extras)
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


def largest_batch(fits, cap, exact, start=1, first=None, decided=None):
    """Doubling from `first` (default `start`: the smallest batch the model trains at) until a batch fails or
    the cap is reached, then bisection between the last batch that fitted and the first that failed; when
    `first` does not fit, bisection between `start` and it. Bisection stops at 1/16 of the batch (one sample
    when `exact`); given `decided`, as soon as `decided(lo, hi)` says every batch from lo to hi - 1 gives the
    same answer (at one sample at the latest).
    Returns (largest fitting, smallest failing or None, [(batch, fitted)...])."""
    tried = []

    def probe(b):
        ok = fits(b)
        tried.append([b, ok])
        return ok

    cap = max(cap, start)
    first = min(max(first or start, start), cap)
    lo, hi = start, None
    if first > start and probe(first):
        lo = first
    else:
        if first > start:
            hi = first
        if not probe(start):
            return 0, start, tried
    while hi is None:
        b = min(lo * 2, cap)
        if b == lo:
            return lo, None, tried
        if probe(b):
            lo = b
        else:
            hi = b
    resolution = 1 if exact or decided is not None else max(1, lo // 16)
    while hi - lo > resolution and not (decided is not None and decided(lo, hi)):
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


def recommended_decided(base):
    """For largest_batch's `decided`: True when every largest batch from lo to hi - 1 gives the same
    recommended batch, so no further probe can change it (nor the knob batch, which follows from it)."""
    return lambda lo, hi: recommended_batch(lo, base) == recommended_batch(hi - 1, base)


def knob_batch(recommended, base):
    """The batch the knobs are timed at: the largest power of two within a quarter of the recommended batch,
    never below the base batch. At the base batch a big GPU waits on Python launching kernels, and every knob
    that adds work on the CPU (autocast's casts, a layout change) looked slower than it is. A quarter leaves
    fp32 room: it needs about twice the activation memory of the mixed precision the largest batch was found
    at, and a quarter of the recommended batch is at most 3/16 of the largest."""
    batch = base
    while batch * 2 <= recommended // 4:
        batch *= 2
    return batch


def steps_at(size, base, batch, fewest):
    """(warm-up, timed steps) at `batch`: the size's own at the base batch; above it, two warm-up steps (the
    first holds cudnn.benchmark's search) and about as many samples as the base batch's run, at least
    `fewest` steps."""
    if batch <= base:
        return size["warmup"], size["steps"]
    return min(size["warmup"], 2), max(fewest, -(-size["steps"] * base // batch))


def change_percent(rate, baseline):
    """The change from `baseline` to `rate` in percent, as the knob table computes it; None without both."""
    if not rate or not baseline:
        return None
    return (rate / baseline - 1) * 100


def helps(rate, baseline):
    """True when `rate` beats `baseline` by at least the noise floor."""
    change = change_percent(rate, baseline)
    return change is not None and change >= NOISE_PERCENT


def chosen_settings(rates):
    """The settings the knob table recommends from the knob runs' rates ({(precision, channels_last,
    benchmark): units/s}), judged as src/tune/tune_advice.cpp judges them (tests/unit/tune_child_test.cpp
    holds the two equal): a mixed precision when it beats fp32 by the noise floor (the fastest; bf16 when
    fp16 is not measurably faster: it needs no GradScaler), then channels_last at that precision, then
    cudnn.benchmark at both. The large batch is timed with these, so the figure recommended is the figure
    of the settings the table recommends."""
    fp32 = rates.get(("fp32", False, False))
    precision = "fp32"
    for candidate in ("fp16", "bf16"):
        rate = rates.get((candidate, False, False))
        if helps(rate, fp32) and (not rates.get((precision, False, False)) or rate > rates[(precision, False, False)]):
            precision = candidate
    fp16, bf16 = rates.get(("fp16", False, False)), rates.get(("bf16", False, False))
    if precision == "fp16" and helps(bf16, fp32) and change_percent(fp16, bf16) < NOISE_PERCENT:
        precision = "bf16"
    channels_last = helps(rates.get((precision, True, False)), rates.get((precision, False, False)))
    benchmark = helps(rates.get((precision, channels_last, True)), rates.get((precision, channels_last, False)))
    return precision, channels_last, benchmark


def measure(bench, size, model, precision, channels_last, benchmark, batch, role, warmup=None, steps=None,
            oom_retry=False, extras=None):
    """One timed run, reported as a result line (or an error line); returns its units/s (images or tokens),
    0 when it failed or its loss is not finite. With `oom_retry` an out-of-memory error is left to the
    caller, which runs it again at a smaller batch: no error line, and None is returned."""
    warmup = size["warmup"] if warmup is None else warmup
    steps = size["steps"] if steps is None else steps
    extras = dict(NO_EXTRAS, **(extras or {}))
    item = "%s/%s/%s/%s/%d%s" % (model, precision, "cl" if channels_last else "nchw",
                                 "benchmark" if benchmark else "default", batch, extras_suffix(extras))
    emit("begin", id=item)
    rate = 0.0
    out_of_memory = False
    try:
        bench.reset_peaks()
        seconds, loss, warm_seconds = bench.run(model, precision, channels_last, benchmark, batch, warmup, steps,
                                                role, extras)
        peak_allocated, peak_reserved = bench.peaks()
        per_sample = bench.per_sample(model)
        finite = math.isfinite(loss)
        samples = batch * steps / seconds if seconds > 0 else 0.0
        emit("result", item=item, role=role, model=model, precision=precision, channels_last=channels_last,
             benchmark=benchmark, batch=batch, warmup=warmup, steps=steps, seconds=seconds,
             samples_per_s=samples, units_per_s=samples * per_sample,
             unit=bench.unit(model),
             loss=loss if finite else None, loss_finite=finite, peak_allocated_bytes=peak_allocated,
             peak_reserved_bytes=peak_reserved, tf32=extras["tf32"], fused=extras["fused"],
             sdpa=extras["sdpa"] or None, compile=extras["compile"] or None, checkpointing=extras["checkpoint"],
             # The compile time: the warm-up steps (the first compiles) less as many steady steps.
             compile_seconds=max(0.0, warm_seconds - warmup * seconds / steps) if extras["compile"] else None)
        rate = samples * per_sample if finite else 0.0
    except Exception as e:  # noqa: BLE001 - a failed measurement is reported, the rest go on
        out_of_memory = is_oom(e)
        user_code = model == "user" and not out_of_memory and not isinstance(e, Planted)
        if user_code:
            traceback.print_exc(file=sys.stderr)  # the user's traceback: the parent shows its tail
        if not (out_of_memory and oom_retry):
            emit("error", item=item, code="oom" if out_of_memory else ("user_model" if user_code else "failed"),
                 message=first_line(e))
    bench.free()  # outside the except block, so the traceback's frames (and their tensors) are gone
    return None if out_of_memory and oom_retry else rate


class Progress:
    """The progress lines: done / total, where the total grows when runs are done again."""

    def __init__(self, total):
        self.done = 0
        self.total = total

    def step(self, item):
        self.done += 1
        emit("progress", done=self.done, total=self.total, item=item)


def knob_run_count(precisions, convolutional):
    """How many knob runs next_knob_run asks for: each precision, then channels_last and cudnn.benchmark at
    the chosen precision when they apply."""
    return len(precisions) + (2 if convolutional else 0)


def next_knob_run(rates, precisions, convolutional):
    """The next knob run the knob table needs ((precision, channels_last, benchmark)), or None when it has
    them all. The table judges each mixed precision against fp32 at NCHW with benchmark off, channels_last
    at the chosen precision, and cudnn.benchmark at the chosen precision and layout (chosen_settings); only
    those are timed, in that order, fp32 first (it needs the most memory, so an out-of-memory error comes
    before the other runs)."""
    for precision in precisions:
        if (precision, False, False) not in rates:
            return precision, False, False
    if not convolutional:
        return None
    precision, channels_last, _ = chosen_settings(rates)
    for run in ((precision, True, False), (precision, channels_last, True)):
        if run not in rates:
            return run
    return None


def measure_knobs(bench, size, model, precisions, convolutional, batch, base, progress):
    """Times the knob runs the table needs (next_knob_run) at `batch`. An out-of-memory error halves the batch
    for all of them (the table compares runs at one batch), says so, and starts them over. Returns (batch,
    {run: units/s})."""
    rates = {}
    while True:
        run = next_knob_run(rates, precisions, convolutional)
        if run is None:
            return batch, rates
        precision, channels_last, benchmark = run
        warmup, steps = steps_at(size, base, batch, size["knob_steps"])
        rate = measure(bench, size, model, precision, channels_last, benchmark, batch, "knob", warmup, steps,
                       oom_retry=batch > base)
        if rate is None:
            smaller = max(base, batch // 2)
            emit("skip", item="%s/%s/%s/%s/%d" % (model, precision, "cl" if channels_last else "nchw",
                                                  "benchmark" if benchmark else "default", batch),
                 reason="out of memory at the knob batch %d: every knob run of %s is timed at batch %d"
                 % (batch, model, smaller))
            progress.total += len(rates)  # the runs done at the larger batch are done again
            batch = smaller
            rates = {}
            continue
        rates[run] = rate
        progress.step(model)


def measure_large_batch(bench, size, model, settings, batch, knob, base, extras=None):
    """The settings the knob table recommends, timed at the recommended batch. The batch fitted at the
    search's precision; a wider one (fp32 won) may not fit it: out of memory halves it while it stays above
    the knob batch, and says so. Returns (the batch timed, its units/s: 0 when it failed)."""
    precision, channels_last, benchmark = settings
    while True:
        warmup, steps = steps_at(size, base, batch, size["large_steps"])
        if extras and extras.get("compile"):
            warmup = max(warmup, 3)  # as the knob run was: reduce-overhead records CUDA graphs after a warm-up
        rate = measure(bench, size, model, precision, channels_last, benchmark, batch, "large_batch", warmup, steps,
                       oom_retry=batch // 2 > knob, extras=extras)
        if rate is not None:
            return batch, rate
        emit("skip", item="%s/%s/large/%d" % (model, precision, batch),
             reason="out of memory at batch %d with %s: the large batch is timed at %d"
             % (batch, precision, batch // 2))
        batch //= 2


def runner_up_precision(rates, precision):
    """The other mixed precision when `precision` (the knob table's) is one and the other also beat fp32 by
    the noise floor at the knob batch, else None."""
    if precision not in ("fp16", "bf16"):
        return None
    other = "bf16" if precision == "fp16" else "fp16"
    return other if helps(rates.get((other, False, False)), rates.get(("fp32", False, False))) else None


def measure_large_precision(bench, size, model, settings, other, batch, base, extras):
    """The large batch again with the runner-up precision `other` and every other setting the same; its units/s,
    or None when it failed. The knob table picks the precision at the knob batch, eager, without the other
    knobs, where the two can rank otherwise than at the large batch with torch.compile. The knob table keeps
    the one large_batch_precision picks (src/tune/tune_advice.cpp LargeBatchRun)."""
    _, channels_last, benchmark = settings
    warmup, steps = steps_at(size, base, batch, size["large_steps"])
    if extras and extras.get("compile"):
        warmup = max(warmup, 3)
    rate = measure(bench, size, model, other, channels_last, benchmark, batch, "large_batch", warmup, steps,
                   oom_retry=True, extras=extras)
    if rate is None:
        emit("skip", item="%s/%s/large/%d" % (model, other, batch),
             reason="out of memory at batch %d with %s: the precision at the large batch is the knob table's"
             % (batch, other))
    return rate


def large_batch_precision(first, first_rate, other, other_rate):
    """The precision kept at the large batch when both mixed precisions were timed there (`other_rate` None:
    `first`): bf16 unless fp16 is measurably faster, as src/tune/tune_advice.cpp LargeBatchRun decides."""
    if not other_rate:
        return first
    fp16_rate, bf16_rate = (first_rate, other_rate) if first == "fp16" else (other_rate, first_rate)
    return "fp16" if helps(fp16_rate, bf16_rate) else "bf16"


def search_largest(bench, size, args, model, precision):
    """(the largest batch that fits at `precision`, the smallest that failed or None, the cap): a search
    line; the largest is None when the search failed."""
    item = "%s/%s/search" % (model, precision)
    emit("begin", id=item)
    cap = args.max_batch or bench.cap(model)
    largest, failed_at = None, None
    try:
        start = time.perf_counter()
        # From the base batch (the small batches below it decide nothing: the recommended batch is never
        # below it), down to the smallest only when it does not fit. --quick stops bisecting once the
        # recommended batch is decided (its knob batch follows from it); the full run narrows the largest
        # batch to 1/16, which the allocator's second run compares against.
        base = bench.base_batch(model)
        decided = recommended_decided(base) if args.size == "quick" and not args.exact else None
        largest, failed_at, tried = largest_batch(
            lambda b: bench.fits(model, precision, bench.image_like(model), b), cap, args.exact,
            start=1 if model == "transformer" else 2,  # batch norm needs two samples to train
            first=base, decided=decided)
        emit("search", item=item, model=model, precision=precision, largest=largest, failed_at=failed_at,
             cap=cap, tried=tried, seconds=time.perf_counter() - start)
    except Exception as e:  # noqa: BLE001
        emit("error", item=item, code="failed", message=first_line(e))
    bench.free()
    return largest, failed_at, cap


# The names torch's caching allocator reads its settings from (c10/cuda/CUDAAllocatorConfig.h, instance()):
# PYTORCH_CUDA_ALLOC_CONF, on ROCm builds PYTORCH_HIP_ALLOC_CONF when that is unset, and in newer releases
# PYTORCH_ALLOC_CONF.
ALLOC_CONF_NAMES = ("PYTORCH_ALLOC_CONF", "PYTORCH_CUDA_ALLOC_CONF", "PYTORCH_HIP_ALLOC_CONF")


def time_again(bench, size, p):
    """The first run's figure again, timed as the first run timed it (plan entry `p`): the large batch with the
    settings the knob table recommends (or, when nothing larger than the knob batch fitted, the fastest knob
    run), its warm-up and timed steps from the same steps_at."""
    model, batch, role = p["model"], int(p["batch"]), p.get("role", "large_batch")
    base = bench.base_batch(model)
    warmup, steps = steps_at(size, base, batch, size["large_steps" if role == "large_batch" else "knob_steps"])
    extras = {k: p.get(k, v) or v for k, v in NO_EXTRAS.items()}
    if extras["compile"]:
        warmup = max(warmup, 3)
    return measure(bench, size, model, p["precision"], bool(p["channels_last"]), bool(p["benchmark"]), batch, role,
                   warmup=warmup, steps=steps, extras=extras)


def library_run(bench, size, args):
    """One library knob's run: the first run's figure again under the variable the parent set. TunableOp's
    tuning (the first step of each new GEMM shape) falls in the warm-up steps; its results file is written at
    the end, for the user to keep (PYTORCH_TUNABLEOP_FILENAME, set by the parent)."""
    if not bench.gpu:
        emit("skip", item="library", reason="not applicable: the CPU has no GPU BLAS or convolution library")
        return
    plan = json.loads(args.library_plan)
    for done, p in enumerate(plan, start=1):
        time_again(bench, size, p)
        bench.free()
        emit("progress", done=done, total=len(plan), item=p["model"])
    tunable = getattr(getattr(bench.torch, "cuda", None), "tunable", None)
    with contextlib.suppress(Exception):
        if tunable is not None and tunable.is_enabled():
            tunable.write_file()


def allocator_run(bench, size, args, alloc_conf):
    """The second run: the batch search (from the largest batch the first run found) and the large batch,
    under the allocator setting the parent put in the environment. On the CPU there is no caching
    allocator: the setting does nothing, and the child says so instead of measuring."""
    if not bench.gpu:
        emit("skip", item="allocator", reason="not applicable: %s configures the GPU caching allocator; the CPU "
             "has none" % (", ".join(sorted(alloc_conf)) or "the allocator setting"))
        return
    plan = json.loads(args.allocator_plan)
    total = 2 * len(plan)
    done = 0
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for p in plan:
            model = p["model"]
            item = "%s/%s/search" % (model, p["search_precision"])
            emit("begin", id=item)
            cap = args.max_batch or bench.cap(model)
            try:
                start = time.perf_counter()
                largest, failed_at, tried = largest_batch(
                    lambda b: bench.fits(model, p["search_precision"], bench.image_like(model), b), cap, args.exact,
                    start=max(int(p["search_from"]), 1 if model == "transformer" else 2))
                emit("search", item=item, model=model, precision=p["search_precision"], largest=largest,
                     failed_at=failed_at, cap=cap, tried=tried, seconds=time.perf_counter() - start)
            except Exception as e:  # noqa: BLE001
                emit("error", item=item, code="failed", message=first_line(e))
            bench.free()
            done += 1
            emit("progress", done=done, total=total, item=model)
            time_again(bench, size, p)
            done += 1
            emit("progress", done=done, total=total, item=model)
    for w in caught:
        text = str(w.message)
        if "expandable_segments" in text and "not supported" in text:
            emit("skip", item="allocator", reason="not applicable: torch says: " + text.splitlines()[0])
            return


def measure_model(bench, size, args, model, precisions, search_precision, compile_modes, extra_count, progress):
    """One model's runs: the generic run, the largest batch, the knob runs at the knob batch derived from it,
    the other knobs (`extra_count` runs counted in `progress`), and the settings they recommend at the
    recommended batch (with the other mixed precision there too, when both beat fp32)."""
    base = bench.base_batch(model)
    # What the guides' generic advice gives: fp32, NCHW, benchmark off, their batch.
    measure(bench, size, model, "fp32", False, False, base, "generic")
    progress.step(model)
    search = None if args.no_search else search_largest(bench, size, args, model, search_precision)
    largest = search[0] if search else None
    recommended = recommended_batch(largest or 0, base)
    batch, rates = measure_knobs(bench, size, model, precisions, bench.image_like(model),
                                 knob_batch(recommended, base), base, progress)
    settings = chosen_settings(rates)
    extras = dict(NO_EXTRAS)
    knob_rate = rates.get(settings)
    if not args.no_extra_knobs:
        library_knob_skips(bench, model)
        if rates.get(settings):
            extras, extra_rates = time_extras(bench, size, args, model, settings, rates[settings], batch, base,
                                              compile_modes, progress)
            knob_rate = chosen_rate(rates[settings], extra_rates, extras)
        else:
            emit("skip", item="%s/knob/extras" % model, reason="the knob run with the chosen settings failed: "
                 "TF32, the fused optimizer, the attention backends and torch.compile are not measured")
            progress.total -= extra_count
    if args.no_search:
        measure_checkpointing(bench, size, args, model, settings, extras, None, None, knob_rate, progress)
        return
    large = None
    if largest and recommended > batch and rates.get(settings):
        large = measure_large_batch(bench, size, model, settings, recommended, batch, base, extras)
        # The two mixed precisions again at the large batch, when it is the batch recommended.
        other = runner_up_precision(rates, settings[0])
        if other and helps(large[1], knob_rate):
            progress.total += 1
            other_rate = measure_large_precision(bench, size, model, settings, other, large[0], base, extras)
            progress.step(model)
            if large_batch_precision(settings[0], large[1], other, other_rate) == other:
                # Checkpointing is timed against the large-batch run the recommendation follows.
                settings, large = (other,) + tuple(settings[1:]), (large[0], other_rate)
    measure_checkpointing(bench, size, args, model, settings, extras, search, large, knob_rate, progress)
    progress.step(model)


def runnable(args, bench, vision, bf16):
    """(the models, the precisions) asked for that can run here; a skip line for each that cannot."""
    models = []
    for model in [m for m in args.models.split(",") if m]:
        if model == "resnet50" and vision is None:
            emit("skip", item="resnet50", reason="torchvision is not installed in this environment")
        elif model == "user" and bench.user is None:
            pass  # its error line said why (user_model)
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
    return models, precisions


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
    alloc_conf = {k: os.environ[k] for k in ALLOC_CONF_NAMES if k in os.environ}
    emit("hello", torch=str(torch.__version__), torchvision=vision, backend=backend, device=name, bf16=bf16,
         size=args.size, warmup=size["warmup"], steps=size["steps"], image=size["image"], seq=size["seq"],
         alloc_conf=alloc_conf,
         mode="allocator" if args.allocator_plan else ("library" if args.library_plan else "knobs"))

    bench = Bench(torch, device, size)
    if args.user_model:
        bench.user = load_user_model(bench, args.user_model)
    if args.allocator_plan:
        allocator_run(bench, size, args, alloc_conf)
        emit("end")
        return 0
    if args.library_plan:
        library_run(bench, size, args)
        emit("end")
        return 0
    if args.loader_only:
        measure_loader(bench, args.size)
        emit("end")
        return 0
    models, precisions = runnable(args, bench, vision, bf16)
    # Per model: the generic run, the largest batch, every knob run at the knob batch derived from it, and
    # the settings they recommend at the recommended batch (the last item of a model counts with its search);
    # then the DataLoader measurement (ResNet-50's input pipeline), after every model's GPU runs.
    loader = "resnet50" in models and not args.no_loader
    compile_modes = [m for m in args.compile_modes.split(",") if m in COMPILE_MODES]

    def extra_count(model):
        return 0 if args.no_extra_knobs else 2 + (len(SDPA_BACKENDS) if model == "transformer" else 0) \
            + max(1, len(compile_modes))

    progress = Progress(sum(1 + knob_run_count(precisions, bench.image_like(m)) + extra_count(m)
                            + (0 if args.no_search else 1) for m in models) + (1 if loader else 0))
    # The search runs at the best mixed precision the device has (fp32 on the CPU), with channels_last.
    search_precision = "bf16" if "bf16" in precisions else ("fp16" if "fp16" in precisions else "fp32")
    for model in models:
        measure_model(bench, size, args, model, precisions, search_precision, compile_modes, extra_count(model),
                      progress)
    if loader:
        measure_loader(bench, args.size)
        progress.step("loader")
    emit("end")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
