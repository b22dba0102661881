# PyTorch CUDA side: every problem of problems.py, CUDA events, min of 30 runs after 5 warm-ups.
import json, sys, torch, torch.nn.functional as F
sys.path.insert(0, __file__.rsplit('/', 1)[0])
from problems import problems, key
torch.backends.cudnn.benchmark = True
dev = 'cuda'
DT = {'f32': torch.float32, 'f16': torch.float16, 'bf16': torch.bfloat16, 'u8': torch.uint8}
def t(fn, reps=30):
    for _ in range(5): fn()
    torch.cuda.synchronize()
    ts = []
    for _ in range(reps):
        a = torch.cuda.Event(enable_timing=True); b = torch.cuda.Event(enable_timing=True)
        a.record(); fn(); b.record(); torch.cuda.synchronize(); ts.append(a.elapsed_time(b))
    ts.sort(); return ts[0], ts[len(ts)//2]
x = torch.empty(2**27, device=dev); y = torch.empty_like(x)
cms, _ = t(lambda: y.copy_(x), reps=20)
print(json.dumps({"copy_ms": cms, "copy_gbs": 2 * x.numel() * 4 / cms / 1e6, "torch": torch.__version__,
                  "cuda": torch.version.cuda, "gpu": torch.cuda.get_device_name()}), flush=True)
del x, y
for p in problems():
    g, d, alg, tag, dt, N, C, IH, IW, OH, OW = p
    r = {"key": key(p)}
    try:
        mf = torch.channels_last if tag == 'axb' else torch.contiguous_format
        if dt == 'u8': x = torch.randint(0, 256, (N, C, IH, IW), device=dev, dtype=torch.uint8)
        else: x = torch.randn(N, C, IH, IW, device=dev).to(DT[dt])
        x = x.contiguous(memory_format=mf)
        if alg in ('max', 'avg_np'):
            if alg == 'max': fwd = lambda x: F.max_pool2d(x, 3, 2, 1)
            else: fwd = lambda x: F.avg_pool2d(x, 3, 2, 1, count_include_pad=False)
        else:
            mode = {'nearest': 'nearest-exact', 'linear': 'bilinear', 'cubic': 'bicubic',
                    'aa': 'bilinear', 'aac': 'bicubic'}[alg]
            kw = {} if mode.startswith('nearest') else {'align_corners': False}
            if alg in ('aa', 'aac'): kw['antialias'] = True
            fwd = lambda x: F.interpolate(x, size=(OH, OW), mode=mode, **kw)
        if d == 'fwd':
            with torch.no_grad(): mn, md = t(lambda: fwd(x))
        else:
            xr = x.clone().requires_grad_(True); yy = fwd(xr); gg = torch.randn_like(yy)
            mn, md = t(lambda: torch.autograd.grad(yy, xr, gg, retain_graph=True))
        r.update(ms=mn, median=md)
    except Exception as e:
        r["err"] = str(e).splitlines()[0][:200]
    print(json.dumps(r), flush=True)
    torch.cuda.empty_cache()
