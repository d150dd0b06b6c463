#!/usr/bin/env python3
"""The held-out trial's two small jobs (tools/heldout_trial.sh; issue 21, "tried on captures
you did not tune on"). Python 3 standard library only.

  heldout_table.py heightmap OUT.pgm
      Writes the trial's own ground: a 121 x 121 16-bit binary PGM (P5) of trial_height below,
      read with `animkit walk --heightmap OUT.pgm --size 30 --height 1.2` (30 m square, 1.2 m
      from the lowest to the highest pixel value). Its shape (a wave bent along z, a mound and
      a hollow) is none of the tests' generated heightmaps (tests/locomotion/walk_util.h's sine
      products, walk_physics.h's ridges and bowl).

  heldout_table.py table WALKS_DIR
      Reads WALKS_DIR/<clip>__<ground>__<walker>/summary.json (the last line `animkit walk`
      prints) and walk.csv (grounds: the trial's three, after flat where it was walked, as
      tools/heldout_assimp.sh does), and prints one Markdown row per walk with issue 21's bounds:
        deepest point any phase  <= 5 mm            (summary deepest_any_phase)
        planted skate mean       <  1 cm/s          (summary skate)
        hover mean               <  1 cm/s          (walk.csv: a heel or toe the pose source
                                 has down, *_source_down, in both frames of a pair while the
                                 walker's is at most 5 cm above its ground at both ends and
                                 above 1 cm at either: its horizontal speed, the mean taken with
                                 the skate's pairs, those within 1 cm at both ends; the column
                                 also gives the hover pairs alone, their count and worst)
        hips (33 ms average)     min(source, -1 g) - 0.25 .. max(source, +1 g) + 0.5
        knee peak                <= max(source peak, 75 deg) + 25 deg
        drag                     <= the source's bound (summary drag_m_s against source_drag_m_s:
                                 a heel or toe within 5 mm of its ground at both ends of a
                                 frame, its horizontal speed, the point farthest over its bound,
                                 the source's own fastest for that point that low, at least
                                 1 cm/s; a swinging foot held down along the ground)
        toe held up              <= 5 cm            (walk.csv: a toe the pose source stands
                                 on alone, *_toe_source_down without *_heel_source_down, in
                                 both frames of a pair, at most 5 cm over the ground under it,
                                 whatever its speed; the physics tables' toe_held_up, which
                                 takes the ground under the whole foot where it differs)
        arrival                  arrived and final distance <= 0.3 m
        settled                  both feet down (left_stance, right_stance) in walk.csv's last
                                 row: a walk that never settles runs to `animkit walk`'s time
                                 limit with a foot up, and its summary still says arrived
      and "within", or the names of the bounds that are out. For an out depth, hips or drag
      figure it adds the frame (walk.csv's row, 0 at t = 0) where the CSV shows it: the deepest
      heel or toe below its ground (the summary also counts the ankle, which the CSV does not
      hold), the lowest/highest hips acceleration recomputed from root_y (the root joint; for
      CMU clips the hips) with the summary's 33 ms window, and the heel or toe move within 5 mm
      of its ground at both ends whose speed is nearest the summary's drag. The figures
      themselves are the summary's.
"""
import json
import math
import os
import struct
import sys

SIZE_M, HEIGHT_M, PIXELS = 30.0, 1.2, 121
DEEPEST_M, SKATE_M_S, ARRIVAL_M = 0.005, 0.01, 0.3
SKATE_HEIGHT_M, HOVER_HIGH_M, DRAG_HIGH_M = 0.01, 0.05, 0.005
HIP_WINDOW_S, G = 0.033, 9.80665
CLIPS = ("slow30", "run30", "veer_mirror", "walk24")
GROUNDS = ("heightmap", "stairs", "hills")
OTHER_GROUNDS = ("flat",)  # walked by tools/heldout_assimp.sh, not by the trial
WALKERS = ("guide", "match")


def trial_height(x, z):
    """Height in 0..1 of the trial's ground at x, z (metres, -15..15)."""
    wave = 0.26 * math.sin(0.33 * x + 0.8 * math.sin(0.21 * z) + 0.5)
    cross = 0.09 * math.cos(0.62 * z - 0.27 * x + 1.3)
    mound = 0.14 * math.exp(-((x - 1.5) ** 2 + (z - 1.0) ** 2) / 7.0)
    hollow = 0.10 * math.exp(-((x + 2.5) ** 2 + (z + 2.0) ** 2) / 5.0)
    return 0.5 + wave + cross + mound - hollow


def write_heightmap(path):
    """Writes the trial's PGM to path (through a temporary beside it)."""
    half = SIZE_M / 2.0
    data = bytearray(b"P5\n%d %d\n65535\n" % (PIXELS, PIXELS))
    for r in range(PIXELS):
        for c in range(PIXELS):
            x = -half + SIZE_M * c / (PIXELS - 1)
            z = -half + SIZE_M * r / (PIXELS - 1)
            h = min(1.0, max(0.0, trial_height(x, z)))
            data += struct.pack(">H", int(round(h * 65535.0)))
    tmp = path + ".tmp"
    with open(tmp, "wb") as f:
        f.write(data)
    os.replace(tmp, path)


def read_csv(path):
    """walk.csv as (column names, rows of floats); ([], []) when missing."""
    if not os.path.exists(path):
        return [], []
    with open(path) as f:
        names = f.readline().strip().split(",")
        rows = [[float(v) if v else math.nan for v in line.strip().split(",")]
                for line in f if line.strip()]
    return names, rows


def deepest_point(names, rows):
    """(depth m, frame, point) of the heel or toe deepest below its ground, or None."""
    col = {n: i for i, n in enumerate(names)}
    best = None
    for f, row in enumerate(rows):
        for side in ("left", "right"):
            for point in ("heel", "toe"):
                key = f"{side}_{point}"
                if key + "_y" not in col:
                    continue
                depth = row[col[key + "_ground"]] - row[col[key + "_y"]]
                if math.isnan(depth):  # no ground under that point
                    continue
                down = "planted" if row[col[key + "_down"]] > 0.5 else "not down"
                if best is None or depth > best[0]:
                    best = (depth, f, f"{side} {point} {down}")
    return best


def point_moves(names, rows):
    """Each heel's and toe's move over each frame of walk.csv: (frame, side, point, its height
    above its ground at the frame's start and end (NaN: no ground), its horizontal speed m/s,
    the frame's end row, the column of `name` for that point (key + name))."""
    col = {n: i for i, n in enumerate(names)}
    t = col["t"]
    for side in ("left", "right"):
        for point in ("heel", "toe"):
            key = f"{side}_{point}"
            x, y, z, g = (col[key + s] for s in ("_x", "_y", "_z", "_ground"))
            for f in range(1, len(rows)):
                a, b = rows[f - 1], rows[f]
                dt = b[t] - a[t]
                if dt > 0.0:
                    yield (f, side, point, a[y] - a[g], b[y] - b[g],
                           math.hypot(b[x] - a[x], b[z] - a[z]) / dt, a, b, col, key)


def hover(names, rows):
    """The hover of walk.csv (the module's docstring): (pairs, their mean m/s, worst m/s, its
    frame and point, the mean with the skate's pairs), or None without the source columns."""
    if "left_heel_source_down" not in names or len(rows) < 2:
        return None
    n, total, worst, where, skate_n, skate_total = 0, 0.0, 0.0, "", 0, 0.0
    for f, side, point, ha, hb, v, a, b, col, key in point_moves(names, rows):
        src = col[key + "_source_down"]
        if not (a[src] > 0.5 and b[src] > 0.5) or math.isnan(ha) or math.isnan(hb):
            continue
        if ha <= SKATE_HEIGHT_M and hb <= SKATE_HEIGHT_M:
            skate_n, skate_total = skate_n + 1, skate_total + v
        elif ha <= HOVER_HIGH_M and hb <= HOVER_HIGH_M:
            n, total = n + 1, total + v
            if v > worst:
                worst, where = v, f"frame {f}, {side} {point} {hb * 1000:.0f} mm up"
    band = (total + skate_total) / (n + skate_n) if n + skate_n else 0.0
    return n, (total / n if n else 0.0), worst, where, band


def toe_held_up(names, rows):
    """(height m, frame, side, frames in a row) of the toe held highest over its ground while
    the pose source stands on it alone (the module's docstring), (0, -1, "", 0) when none is
    held over 5 cm, or None without the source columns."""
    if "left_toe_source_down" not in names or len(rows) < 2:
        return None
    col = {n: i for i, n in enumerate(names)}
    best, run_of_best = (0.0, -1, "", 0), 0
    for side in ("left", "right"):
        toe, heel = col[side + "_toe_source_down"], col[side + "_heel_source_down"]
        y, g = col[side + "_toe_y"], col[side + "_toe_ground"]
        run = 0
        for f in range(1, len(rows)):
            a, b = rows[f - 1], rows[f]
            up = b[y] - b[g]
            alone = a[toe] > 0.5 and b[toe] > 0.5 and b[heel] < 0.5
            run = run + 1 if alone and up > HOVER_HIGH_M else 0
            if run and up > best[0]:
                best = (up, f, side, run)
            if run and best[1] > f - run and best[2] == side:
                run_of_best = run
    return best[:3] + (run_of_best,) if best[1] >= 0 else best


def drag_where(names, rows, speed):
    """(frame, point, m/s) of the walk.csv move nearest `speed` (the summary's drag_m_s) among
    each heel's and toe's moves within 5 mm of its ground at both ends of a frame, or None: the
    summary measures the drag (ak_walk_metrics); the CSV, at 10 um, only finds its frame."""
    if "left_heel_ground" not in names or len(rows) < 2:
        return None
    best = None
    for f, side, point, ha, hb, v, _, b, col, _ in point_moves(names, rows):
        if not (ha <= DRAG_HIGH_M and hb <= DRAG_HIGH_M):
            continue  # NaN (no ground) compares false: not counted
        phase = "planted" if b[col[side + "_stance"]] > 0.5 else "swinging"
        if best is None or abs(v - speed) < abs(best[2] - speed):
            best = (f, f"{side} {point} {phase}", v)
    return best


def hip_extremes(names, rows):
    """((min g, frame), (max g, frame)) of root_y's 33 ms average's second difference, or None."""
    if len(rows) < 4 or "root_y" not in names:
        return None
    t, y = names.index("t"), names.index("root_y")
    dt = rows[1][t] - rows[0][t]
    if not dt > 0.0:
        return None
    n = max(1, int(math.floor(HIP_WINDOW_S / dt + 0.5)))
    avg = [None] * len(rows)
    for f in range(n - 1, len(rows)):
        avg[f] = sum(rows[k][y] for k in range(f - n + 1, f + 1)) / n
    lo = hi = None
    for f in range(n + 1, len(rows)):
        a = (avg[f] - 2.0 * avg[f - 1] + avg[f - 2]) / (dt * dt) / G
        if lo is None or a < lo[0]:
            lo = (a, f)
        if hi is None or a > hi[0]:
            hi = (a, f)
    return lo, hi


def bounds(s):
    """Issue 21's hips and knee bounds from the summary's source figures."""
    lo = min(s["source_hip_accel_min_g"], -1.0) - 0.25
    hi = max(s["source_hip_accel_max_g"], 1.0) + 0.5
    knee = max(s["source_knee_peak_deg"], 75.0) + 25.0
    return lo, hi, knee


def verdict(s, walk_dir):
    """"within", or the bounds that are out with the frames the CSV shows."""
    lo, hi, knee = bounds(s)
    out = []
    names, rows = read_csv(os.path.join(walk_dir, "walk.csv"))
    if s["deepest_any_phase"] > DEEPEST_M:
        where = deepest_point(names, rows)
        at = f" (CSV: frame {where[1]}, {where[2]}, {where[0] * 1000:.1f} mm)" if where else ""
        out.append("deepest" + at)
    if s["skate"] >= SKATE_M_S:
        out.append("skate")
    hv = hover(names, rows)
    if hv and hv[4] >= SKATE_M_S:
        out.append(f"hover ({hv[3]}, {hv[2]:.2f} m/s)")
    hips = hip_extremes(names, rows) if (s["hip_accel_min_g"] < lo or
                                          s["hip_accel_max_g"] > hi) else None
    if s["hip_accel_min_g"] < lo:
        out.append("hips low" + (f" (frame {hips[0][1]})" if hips else ""))
    if s["hip_accel_max_g"] > hi:
        out.append("hips high" + (f" (frame {hips[1][1]})" if hips else ""))
    if s["knee_peak_deg"] > knee:
        out.append("knee")
    th = toe_held_up(names, rows)
    if th and th[1] >= 0:
        out.append(f"toe held up (frame {th[1]}, {th[2]} toe {th[0] * 1000:.0f} mm up, "
                   f"{th[3]} frames)")
    if "drag_m_s" in s and s["drag_m_s"] > s["source_drag_m_s"]:
        where = drag_where(names, rows, s["drag_m_s"])
        out.append("drag" + (f" (CSV: frame {where[0]}, {where[1]}, {where[2]:.2f} m/s)"
                             if where else ""))
    if not s["arrived"] or s["final_distance"] > ARRIVAL_M:
        out.append("arrival")
    if rows and not all(rows[-1][names.index(k)] == 1.0 for k in ("left_stance", "right_stance")):
        out.append(f"not settled (a foot up at t = {s['time_s']:.1f} s)")
    return "within" if not out else "out: " + "; ".join(out)


def row(clip, ground, walker, walk_dir):
    """One Markdown row of the table."""
    path = os.path.join(walk_dir, "summary.json")
    if not os.path.exists(path):
        # A clip `animkit walk` refuses (no walking found: the guide's cycle finder, or with
        # --steer match a database none of whose pieces walks) says why on stderr's last line.
        why = ""
        err_path = os.path.join(walk_dir, "stderr")
        if os.path.exists(err_path):
            with open(err_path) as f:
                lines = [ln.strip() for ln in f if "no walking found" in ln]
            why = lines[-1].replace("animkit walk: ", "").replace("|", "/") if lines else ""
        if why:
            return f"| {clip} | {ground} | {walker} | refused: {why} |" + " |" * 9 + " refused |"
        return f"| {clip} | {ground} | {walker} | no summary (see {walk_dir}/stderr) |" + " |" * 10
    with open(path) as f:
        s = json.loads(f.read().strip().splitlines()[-1])
    lo, hi, knee = bounds(s)
    names, rows = read_csv(os.path.join(walk_dir, "walk.csv"))
    hv = hover(names, rows)
    hover_cell = (f"{hv[4] * 100:.2f} ({hv[0]} pairs {hv[1] * 100:.1f}, worst {hv[2] * 100:.1f})"
                  if hv else "no source columns")
    th = toe_held_up(names, rows)
    toe_cell = f"{th[0] * 1000:.0f}" if th else "no source columns"
    drag_cell = (f"{s['drag_m_s']:.2f} ({s['source_drag_m_s']:.2f})" if "drag_m_s" in s
                 else "no drag figure")
    return (f"| {clip} | {ground} | {walker} | {'yes' if s['arrived'] else 'no'} "
            f"| {s['final_distance']:.2f} | {s['deepest_any_phase'] * 1000:.1f} "
            f"| {s['deepest_planted'] * 1000:.1f} | {s['skate'] * 100:.2f} | {hover_cell} "
            f"| {s['hip_accel_min_g']:.2f}..{s['hip_accel_max_g']:.2f} ({lo:.2f}..{hi:.2f}) "
            f"| {s['knee_peak_deg']:.1f} ({knee:.1f}) | {drag_cell} | {toe_cell} "
            f"| {verdict(s, walk_dir)} |")


def clips_of(walks):
    """The trial's clips (CLIPS), then any other clip walked into `walks` (a trial of other
    clips made with the same layout, CLIP__GROUND__WALKER), in name order."""
    found = set()
    if os.path.isdir(walks):
        found = {d.split("__")[0] for d in os.listdir(walks) if d.count("__") == 2}
    others = sorted(found - set(CLIPS))
    return [c for c in CLIPS if c in found or not others] + others


def grounds_of(walks):
    """The trial's grounds (GROUNDS), after any of OTHER_GROUNDS walked into `walks`."""
    found = set()
    if os.path.isdir(walks):
        found = {d.split("__")[1] for d in os.listdir(walks) if d.count("__") == 2}
    return [g for g in OTHER_GROUNDS if g in found] + list(GROUNDS)


def print_table(walks):
    """The trial's table, every clip x ground x walker, and how many rows are within."""
    print("| clip | ground | walker | arrived | final m | deepest any phase mm | planted "
          "deepest mm | planted skate cm/s | hover cm/s with the skate (hover pairs alone, "
          "worst) | hips g (bound) | knee deg (bound) | drag m/s (bound) | toe held up mm "
          "(bound 50) | verdict |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    within = {w: 0 for w in WALKERS}
    clips, grounds = clips_of(walks), grounds_of(walks)
    for clip in clips:
        for ground in grounds:
            for walker in WALKERS:
                line = row(clip, ground, walker,
                           os.path.join(walks, f"{clip}__{ground}__{walker}"))
                within[walker] += line.endswith("| within |")
                print(line)
    per = len(clips) * len(grounds)
    print("\n" + ", ".join(f"{w}: {within[w]} of {per} rows within" for w in WALKERS))


def main(argv):
    if len(argv) == 3 and argv[1] == "heightmap":
        write_heightmap(argv[2])
        return 0
    if len(argv) == 3 and argv[1] == "table":
        print_table(argv[2])
        return 0
    sys.stderr.write("usage: heldout_table.py heightmap OUT.pgm | table WALKS_DIR\n")
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
