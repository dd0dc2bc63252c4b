"""Draws the charts of Results/REPORT.md from the charts.csv that `bench report` writes.

usage: plot_results.py CHARTS_CSV OUTPUT_FOLDER
Writes <chart>.png for every chart in the file. The file says everything: which panel each value goes into, its
title, axis label and style; this script knows no backend, workload or metric by name. Colours follow each series
(a backend) through every chart, in the order the series first appear.
"""
import csv
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

PALETTE = ["#1f77b4", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#6a3d9a", "#b15928",
           "#7f7f7f", "#aaaaaa", "#bcbd22", "#cab2d6", "#17becf", "#333333", "#ff7f0e"]


def number(text):
    return float(text) if text else None


def read(path):
    with open(path, newline="", encoding="utf-8") as handle:
        return list(csv.DictReader(handle))


def in_order(rows, key):
    seen = []
    for row in rows:
        if row[key] not in seen:
            seen.append(row[key])
    return seen


def draw_panel(axis, rows, colors):
    style = rows[0]["style"]
    if style in ("lines-log", "lines-rate"):
        xs = in_order(rows, "x")
        for series in in_order(rows, "series"):
            values = {row["x"]: float(row["value"]) for row in rows if row["series"] == series}
            axis.plot(xs, [values.get(x, float("nan")) for x in xs], marker="o", label=series, color=colors[series])
        if style == "lines-log":
            axis.set_yscale("log")
        else:
            axis.set_ylim(-0.05, 1.05)
        axis.grid(True, which="both", alpha=0.3)
        axis.legend(fontsize=7)
    else:
        names = [row["x"] for row in rows]
        values = [float(row["value"]) for row in rows]
        ranges = None
        if all(row["low"] and row["high"] for row in rows):
            ranges = [[v - float(row["low"]) for v, row in zip(values, rows)],
                      [float(row["high"]) - v for v, row in zip(values, rows)]]
        drawn = axis.bar(range(len(names)), values, yerr=ranges, capsize=3,
                         color=[colors[row["series"]] for row in rows])
        if style == "bars-log":
            axis.set_yscale("log")
        else:
            axis.bar_label(drawn, labels=[f"{v:.3g}" for v in values], fontsize=7)
        axis.set_xticks(range(len(names)), names, rotation=60, ha="right", fontsize=7)
    axis.set_title(rows[0]["panel_title"], fontsize=8)
    axis.set_ylabel(rows[0]["y_label"], fontsize=7)
    axis.tick_params(axis="y", labelsize=7)


def draw(chart, rows, colors, folder):
    panels = {}
    for row in rows:
        panels.setdefault((int(row["row"]), int(row["column"])), []).append(row)
    lines = max(r for r, _ in panels) + 1
    columns = max(c for _, c in panels) + 1
    figure, axes = plt.subplots(lines, columns, figsize=(4.2 * columns, 3.4 * lines), squeeze=False)
    for (line, column), members in panels.items():
        draw_panel(axes[line][column], members, colors)
    for line in range(lines):
        for column in range(columns):
            if (line, column) not in panels:
                axes[line][column].axis("off")
    figure.suptitle(rows[0]["chart_title"], fontsize=10)
    figure.tight_layout()
    # 100 dpi, optimised losslessly: the committed reference charts count against Results/'s 5 MB (Results/README.md).
    figure.savefig(os.path.join(folder, f"{chart}.png"), dpi=100, pil_kwargs={"optimize": True})
    plt.close(figure)


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: plot_results.py CHARTS_CSV OUTPUT_FOLDER")
    rows = read(sys.argv[1])
    os.makedirs(sys.argv[2], exist_ok=True)
    colors = {series: PALETTE[index % len(PALETTE)] for index, series in enumerate(in_order(rows, "series"))}
    for chart in in_order(rows, "chart"):
        draw(chart, [row for row in rows if row["chart"] == chart], colors, sys.argv[2])


if __name__ == "__main__":
    main()
