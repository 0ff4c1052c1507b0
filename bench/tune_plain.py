# A plain PyTorch training loop, timed as `gpudoctor tune` times its own (data/tune/tune_child.py), for ResNet-50
# (torchvision's, built without weights, synthetic 224x224 images, 1000 classes) or tune's transformer (an
# embedding, pre-norm nn.TransformerEncoderLayer blocks, a vocabulary head; random tokens): SGD with momentum
# (fused or not), fp32 (with TF32 or not) or fp16 autocast with a GradScaler or bf16 autocast, NCHW or
# channels_last, cudnn.benchmark off or on, an attention backend forced or torch's choice, eager or
# torch.compile, WARMUP untimed steps (the first compile), then STEPS steps between two device synchronizations.
# The yardstick of bench/tune_compare.sh (issue 33: tune's figure within 5% of this one; the recommended settings
# against the generic and an expert's).
#   python bench/tune_plain.py --model resnet50|transformer --batch N --steps N --warmup N
#       [--precision fp32|fp16|bf16] [--channels-last] [--benchmark] [--tf32] [--fused]
#       [--sdpa flash|efficient|math] [--compile default|reduce-overhead|max-autotune] [--size full|quick|tiny]
#       [--device cuda|cpu]
# Prints one JSON line: {"rate": units/s, "unit": ..., "compile_seconds": ..., the settings}.
import argparse
import contextlib
import json
import os
import time

# As gpudoctor tune runs its child: without torch's AOTAutograd cache, whose key (before pytorch/pytorch PR
# 181564) ignored the autocast dtype, so a bf16 run could load a graph an earlier fp16 run compiled.
os.environ["TORCHINDUCTOR_AUTOGRAD_CACHE"] = "0"
import torch  # noqa: E402

SHAPES = {  # tune's transformer sizes (data/tune/tune_child.py SIZES)
    "full": dict(image=224, d_model=1024, heads=16, ff=4096, layers=2, seq=512, vocab=8192),
    "quick": dict(image=224, d_model=512, heads=8, ff=2048, layers=1, seq=256, vocab=4096),
    "tiny": dict(image=32, d_model=32, heads=2, ff=64, layers=1, seq=16, vocab=64),
}

p = argparse.ArgumentParser()
p.add_argument("--model", default="resnet50", choices=["resnet50", "transformer"])
p.add_argument("--batch", type=int, default=32)
p.add_argument("--steps", type=int, default=50)
p.add_argument("--warmup", type=int, default=10)
p.add_argument("--precision", default="fp32", choices=["fp32", "fp16", "bf16"])
p.add_argument("--channels-last", action="store_true")
p.add_argument("--benchmark", action="store_true")
p.add_argument("--tf32", action="store_true")
p.add_argument("--fused", action="store_true")
p.add_argument("--sdpa", default="", choices=["", "flash", "efficient", "math"])
p.add_argument("--compile", default="", choices=["", "default", "reduce-overhead", "max-autotune"])
p.add_argument("--size", default="full", choices=list(SHAPES))
p.add_argument("--device", default="cuda")
a = p.parse_args()
s = SHAPES[a.size]

device = torch.device("cuda", 0) if a.device == "cuda" else torch.device("cpu")
torch.backends.cudnn.benchmark = a.benchmark
if a.tf32:  # as tune sets it: one API (torch >= 2.9 refuses a mix of the legacy and the new flags)
    try:  # the flags object raises AssertionError, not AttributeError, for a name it lacks (torch 1.13)
        new_api = hasattr(torch.backends.cuda.matmul, "fp32_precision")
    except Exception:  # noqa: BLE001
        new_api = False
    if new_api:
        torch.backends.cuda.matmul.fp32_precision = "tf32"
    else:
        torch.set_float32_matmul_precision("high")
if a.model == "resnet50":
    import torchvision
    model = torchvision.models.resnet50(weights=None).to(device)
    if a.channels_last:
        model = model.to(memory_format=torch.channels_last)
    x = torch.randn(a.batch, 3, s["image"], s["image"], device=device)
    if a.channels_last:
        x = x.contiguous(memory_format=torch.channels_last)
    y = torch.randint(0, 1000, (a.batch,), device=device)
    per_sample, unit = 1, "images/s"
else:
    layer = torch.nn.TransformerEncoderLayer(s["d_model"], s["heads"], s["ff"], dropout=0.0, batch_first=True,
                                             norm_first=True)
    model = torch.nn.Sequential(torch.nn.Embedding(s["vocab"], s["d_model"]),
                                torch.nn.TransformerEncoder(layer, s["layers"], enable_nested_tensor=False),
                                torch.nn.Linear(s["d_model"], s["vocab"])).to(device)
    x = torch.randint(0, s["vocab"], (a.batch, s["seq"]), device=device)
    y = torch.randint(0, s["vocab"], (a.batch, s["seq"]), device=device)
    per_sample, unit = s["seq"], "tokens/s"

optimizer = torch.optim.SGD(model.parameters(), lr=1e-3, momentum=0.9, **({"fused": True} if a.fused else {}))
forward = torch.compile(model, mode=None if a.compile == "default" else a.compile) if a.compile else model
dtype = {"fp16": torch.float16, "bf16": torch.bfloat16}.get(a.precision)
# A GradScaler only for fp16, as one writes it by hand (bf16 and fp32 step the optimizer directly).
scaler = None
if a.precision == "fp16":
    scaler = torch.amp.GradScaler(device.type) if hasattr(torch.amp, "GradScaler") \
        else torch.cuda.amp.GradScaler()  # torch < 2.3
criterion = torch.nn.CrossEntropyLoss()
if a.sdpa:
    from torch.nn.attention import SDPBackend, sdpa_kernel
    backend = {"flash": SDPBackend.FLASH_ATTENTION, "efficient": SDPBackend.EFFICIENT_ATTENTION,
               "math": SDPBackend.MATH}[a.sdpa]
    attention = lambda: sdpa_kernel(backend)  # noqa: E731
else:
    attention = contextlib.nullcontext


def train_step():
    if a.compile == "reduce-overhead":
        torch.compiler.cudagraph_mark_step_begin()
    optimizer.zero_grad(set_to_none=True)
    autocast = torch.autocast(device.type, dtype=dtype) if dtype is not None else contextlib.nullcontext()
    with autocast, attention():
        out = forward(x)
        if a.model != "resnet50":
            out = out.reshape(-1, out.shape[-1])
        loss = criterion(out, y.reshape(-1))
    with attention():
        if scaler is not None:
            scaler.scale(loss).backward()
            scaler.step(optimizer)
            scaler.update()
        else:
            loss.backward()
            optimizer.step()
    return loss


def sync():
    if device.type == "cuda":
        torch.cuda.synchronize(device)


warm_start = time.perf_counter()
for _ in range(a.warmup):
    train_step()
sync()
start = time.perf_counter()
for _ in range(a.steps):
    loss = train_step()
sync()
seconds = time.perf_counter() - start
warm = start - warm_start
print(json.dumps({"model": a.model, "rate": a.batch * a.steps * per_sample / seconds, "unit": unit,
                  "batch": a.batch, "steps": a.steps, "warmup": a.warmup, "precision": a.precision,
                  "channels_last": a.channels_last, "benchmark": a.benchmark, "tf32": a.tf32, "fused": a.fused,
                  "sdpa": a.sdpa, "compile": a.compile, "seconds": seconds,
                  "compile_seconds": max(0.0, warm - a.warmup * seconds / a.steps) if a.compile else None,
                  "peak_allocated_bytes": torch.cuda.max_memory_allocated(device) if device.type == "cuda" else None,
                  "loss": float(loss.item()), "torch": torch.__version__}))
