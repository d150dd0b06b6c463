#!/bin/sh
# make soak: an hour of simulated walking between random targets on seeded hills (not part
# of the tests). Checks bone lengths (1e-5 m), quaternion norms (1e-6), the foot-contact goals
# and that resident memory stays flat. $1 is the build folder; AK_SOAK_SECONDS and
# AK_SOAK_SEED override the defaults (3600 s, seeds 1 2 3).
set -e
BUILD=${1:-build}
SECONDS_SIM=${AK_SOAK_SECONDS:-3600}
SEEDS=${AK_SOAK_SEED:-1 2 3}
if [ ! -x "$BUILD/bin/bench_locomotion" ]; then
  echo "soak: $BUILD/bin/bench_locomotion missing (configure with -DAK_BUILD_BENCH=ON)" >&2
  exit 1
fi
status=0
for seed in $SEEDS; do
  echo "== soak, hills seed $seed"
  "$BUILD/bin/bench_locomotion" --soak "$SECONDS_SIM" "$seed" || status=1
done
exit $status
