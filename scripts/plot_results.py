"""Charts for Results/REPORT.md, drawn only from a summary.csv written by bench.

usage: plot_results.py SUMMARY_CSV OUTPUT_FOLDER
Writes throughput.png, latency.png, allocations.png, actors.png (W11-W13) and idle_cpu.png (W14).
Uses the jemalloc rows when present.
"""
import csv
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

SINGLE_METRICS = ["ns_per_task", "ns_per_round_trip", "ns_per_step", "ns_per_value"]
ACTOR_WORKLOADS = ("W11", "W12", "W13")
ACTOR_TIMES = ["ns_per_call", "ns_per_task", "ns_per_round_trip"]
ACTOR_ALLOCATIONS = ["allocs_per_call", "allocs_per_task", "allocs_per_round_trip"]
PERCENTILES = ["p50", "p90", "p99", "p99.9", "max"]
COLORS = {
    "dispatch": "#1f77b4", "threadpool": "#2ca02c", "operationqueue": "#d62728", "immediate": "#9467bd",
    "subscription": "#8c564b", "test": "#e377c2", "raw-dispatch": "#7f7f7f", "raw-operationqueue": "#bcbd22",
    "direct-call": "#17becf", "raw-dispatch-global": "#aaaaaa", "default-executor": "#ff7f0e",
    "nio-eventloop": "#6a3d9a", "nio-threadpool": "#b15928", "raw-nio-execute": "#cab2d6",
}


def read_rows(path):
    with open(path, newline="", encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    allocators = {row["allocator"] for row in rows}
    chosen = "jemalloc" if "jemalloc" in allocators else sorted(allocators)[0]
    return [row for row in rows if row["allocator"] == chosen], chosen


def cells(rows, metrics):
    """(workload, parameters, metric) in file order, with their rows."""
    order = []
    grouped = {}
    for row in rows:
        if row["metric"] not in metrics:
            continue
        key = (row["workload"], row["parameters"], row["metric"])
        if key not in grouped:
            order.append(key)
            grouped[key] = []
        grouped[key].append(row)
    return [(key, grouped[key]) for key in order]


def bars(axis, members, log=True):
    """Median per backend; error bars span min..max over the rounds."""
    names = [row["backend"] for row in members]
    medians = [float(row["median"]) for row in members]
    low = [m - float(row["min"]) for m, row in zip(medians, members)]
    high = [float(row["max"]) - m for m, row in zip(medians, members)]
    drawn = axis.bar(range(len(names)), medians, yerr=[low, high], capsize=3,
                     color=[COLORS.get(name, "#333333") for name in names])
    if log:
        axis.set_yscale("log")
    else:
        axis.bar_label(drawn, labels=[f"{v:.3g}" for v in medians], fontsize=7)
    axis.set_xticks(range(len(names)), names, rotation=60, ha="right", fontsize=7)
    axis.tick_params(axis="y", labelsize=7)


def grid(count, columns):
    lines = max(1, (count + columns - 1) // columns)
    return plt.subplots(lines, columns, figsize=(4.2 * columns, 3.2 * lines), squeeze=False)


def throughput(rows, allocator, path):
    groups = cells([r for r in rows if r["workload"] not in ACTOR_WORKLOADS], SINGLE_METRICS)
    if not groups:
        return
    figure, axes = grid(len(groups), 4)
    for axis, ((workload, parameters, metric), members) in zip(axes.flat, groups):
        bars(axis, members)
        axis.set_title(f"{workload} {parameters}", fontsize=8)
        axis.set_ylabel(f"{metric} (ns, log)", fontsize=7)
    for axis in list(axes.flat)[len(groups):]:
        axis.axis("off")
    figure.suptitle(f"Cost per task / hop / step (median, bars = min..max over rounds), {allocator}; lower is better")
    figure.tight_layout()
    figure.savefig(path, dpi=110)


def latency(rows, allocator, path):
    groups = {}
    order = []
    for row in rows:
        if row["workload"] not in ("W5", "W6") or row["metric"] != "p50":
            continue
        key = (row["workload"], row["parameters"])
        if key not in groups:
            order.append(key)
            groups[key] = []
        groups[key].append(row["backend"])
    if not order:
        return
    figure, axes = plt.subplots(1, len(order), figsize=(5.5 * len(order), 4), squeeze=False)
    for axis, key in zip(axes.flat, order):
        for backend in groups[key]:
            values = []
            for metric in PERCENTILES:
                match = [r for r in rows if (r["workload"], r["parameters"]) == key and r["backend"] == backend
                         and r["metric"] == metric]
                values.append(float(match[0]["median"]) / 1000 if match else float("nan"))
            axis.plot(PERCENTILES, values, marker="o", label=backend, color=COLORS.get(backend, "#333333"))
        axis.set_yscale("log")
        title = "W5 start latency" if key[0] == "W5" else "W6 timer lateness"
        axis.set_title(f"{title} ({key[1]})", fontsize=9)
        axis.set_ylabel("µs (log)")
        axis.grid(True, which="both", alpha=0.3)
        axis.legend(fontsize=7)
    figure.suptitle(f"Latency percentiles (median over rounds), {allocator}; load=1 means every core busy")
    figure.tight_layout()
    figure.savefig(path, dpi=110)


def allocations(rows, allocator, path):
    metrics = [("allocs_per_task", "allocations per task"), ("bytes_per_task", "bytes per task"),
               ("rss_per_queued_task", "RSS bytes per queued task")]
    present = [(m, label) for m, label in metrics if any(r["workload"] == "W9" and r["metric"] == m for r in rows)]
    if not present:
        return
    figure, axes = plt.subplots(1, len(present), figsize=(5 * len(present), 4), squeeze=False)
    for axis, (metric, label) in zip(axes.flat, present):
        members = [r for r in rows if r["workload"] == "W9" and r["metric"] == metric]
        names = [r["backend"] for r in members]
        values = [float(r["median"]) for r in members]
        bars = axis.bar(range(len(names)), values, color=[COLORS.get(n, "#333333") for n in names])
        axis.bar_label(bars, labels=[f"{v:.3g}" for v in values], fontsize=7)
        axis.set_xticks(range(len(names)), names, rotation=60, ha="right", fontsize=7)
        axis.set_title(label, fontsize=9)
    parameters = next((r["parameters"] for r in rows if r["workload"] == "W9"), "")
    figure.suptitle(f"W9 allocations on the scheduling thread ({parameters}), {allocator}")
    figure.tight_layout()
    figure.savefig(path, dpi=110)


def actors(rows, allocator, path):
    """W11-W13: time per call, task or round trip (log), and allocations of every thread per unit (linear)."""
    actor_rows = [r for r in rows if r["workload"] in ACTOR_WORKLOADS]
    times = cells(actor_rows, ACTOR_TIMES)
    counts = cells(actor_rows, ACTOR_ALLOCATIONS)
    if not times and not counts:
        return
    columns = max(len(times), len(counts))
    figure, axes = plt.subplots(2 if counts and times else 1, columns, figsize=(4.2 * columns, 3.4 * (2 if counts and times else 1)),
                                squeeze=False)
    for line, (groups, log) in enumerate([(g, log) for g, log in [(times, True), (counts, False)] if g]):
        for column, ((workload, parameters, metric), members) in enumerate(groups):
            axis = axes[line][column]
            bars(axis, members, log=log)
            axis.set_title(f"{workload} {parameters}", fontsize=8)
            axis.set_ylabel(f"{metric}{' (ns, log)' if log else ''}", fontsize=7)
        for axis in axes[line][len(groups):]:
            axis.axis("off")
    figure.suptitle(f"Actors and tasks: scheduler executors vs default-executor (median, bars = min..max), {allocator}; lower is better")
    figure.tight_layout()
    figure.savefig(path, dpi=110)


def idle_cpu(rows, allocator, path):
    groups = cells([r for r in rows if r["workload"] == "W14"], ["cpu_ms_idle"])
    if not groups:
        return
    figure, axes = plt.subplots(1, len(groups), figsize=(max(7, 6 * len(groups)), 4), squeeze=False)
    for axis, ((workload, parameters, metric), members) in zip(axes.flat, groups):
        bars(axis, members, log=False)
        axis.set_title(f"{workload} CPU used while idle ({parameters})", fontsize=9)
        axis.set_ylabel("CPU ms (user + system)", fontsize=8)
    figure.suptitle(f"W14 idle CPU after one task, {allocator}; lower is better")
    figure.tight_layout()
    figure.savefig(path, dpi=110)


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: plot_results.py SUMMARY_CSV OUTPUT_FOLDER")
    rows, allocator = read_rows(sys.argv[1])
    os.makedirs(sys.argv[2], exist_ok=True)
    throughput(rows, allocator, os.path.join(sys.argv[2], "throughput.png"))
    latency(rows, allocator, os.path.join(sys.argv[2], "latency.png"))
    allocations(rows, allocator, os.path.join(sys.argv[2], "allocations.png"))
    actors(rows, allocator, os.path.join(sys.argv[2], "actors.png"))
    idle_cpu(rows, allocator, os.path.join(sys.argv[2], "idle_cpu.png"))


if __name__ == "__main__":
    main()
