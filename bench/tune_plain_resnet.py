# A plain PyTorch ResNet-50 AMP training loop, timed as `gpudoctor tune` times its own (data/tune/tune_child.py):
# torchvision's resnet50 built without weights, synthetic 224x224 images, SGD with momentum, fp16 autocast and
# a GradScaler (or bf16 autocast, or fp32), NCHW or channels_last, cudnn.benchmark off or on, WARMUP untimed
# steps, then STEPS steps between two device synchronizations. The yardstick of bench/tune_compare.sh (issue 17:
# tune's figure within 5% of this one).
#   python bench/tune_plain_resnet.py [BATCH] [STEPS] [WARMUP] [IMAGE] [fp16|bf16|fp32] [CHANNELS_LAST 0|1] [BENCHMARK 0|1]
# Prints one JSON line: {"images_per_s": ..., "batch": ..., ...}.
import json
import sys
import time

import torch
import torchvision

batch = int(sys.argv[1]) if len(sys.argv) > 1 else 32
steps = int(sys.argv[2]) if len(sys.argv) > 2 else 50
warmup = int(sys.argv[3]) if len(sys.argv) > 3 else 10
image = int(sys.argv[4]) if len(sys.argv) > 4 else 224
precision = sys.argv[5] if len(sys.argv) > 5 else "fp16"
channels_last = len(sys.argv) > 6 and sys.argv[6] == "1"
benchmark = len(sys.argv) > 7 and sys.argv[7] == "1"

device = torch.device("cuda", 0)
torch.backends.cudnn.benchmark = benchmark
model = torchvision.models.resnet50(weights=None).to(device)
if channels_last:
    model = model.to(memory_format=torch.channels_last)
optimizer = torch.optim.SGD(model.parameters(), lr=1e-3, momentum=0.9)
scaler = torch.amp.GradScaler("cuda", enabled=precision == "fp16")
dtype = {"fp16": torch.float16, "bf16": torch.bfloat16}.get(precision)
criterion = torch.nn.CrossEntropyLoss()
images = torch.randn(batch, 3, image, image, device=device)
if channels_last:
    images = images.contiguous(memory_format=torch.channels_last)
labels = torch.randint(0, 1000, (batch,), device=device)


def train_step():
    optimizer.zero_grad(set_to_none=True)
    with torch.autocast("cuda", dtype=dtype or torch.float16, enabled=dtype is not None):
        loss = criterion(model(images), labels)
    scaler.scale(loss).backward()
    scaler.step(optimizer)
    scaler.update()
    return loss


for _ in range(warmup):
    train_step()
torch.cuda.synchronize(device)
start = time.perf_counter()
for _ in range(steps):
    loss = train_step()
torch.cuda.synchronize(device)
seconds = time.perf_counter() - start
print(json.dumps({"images_per_s": batch * steps / seconds, "batch": batch, "steps": steps, "warmup": warmup,
                  "image": image, "precision": precision, "channels_last": channels_last, "benchmark": benchmark, "seconds": seconds, "loss": float(loss.item()), "torch": torch.__version__}))
