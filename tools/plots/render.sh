#!/bin/sh
# Draws docs/img's figures from the library's own output (make plots, make plots-check).
#   tools/plots/render.sh OUT_DIR DATA_DIR     runs the scenes (plots.lua) into
#                                              DATA_DIR, then each figure's gnuplot
#                                              script into OUT_DIR/<figure>.svg
#   tools/plots/render.sh --check DATA_DIR     the same into DATA_DIR, then compares
#                                              every figure with docs/img/'s copy
# Run from the checkout root after the module is built; LUA (default lua5.4) and
# BUILD (default build) as in the Makefile.
set -eu
FIGURES="jump_arc speed_curves liquids_ladder resolvers crowd"
LUA=${LUA:-lua5.4}
BUILD=${BUILD:-build}

check=false
if [ "${1:-}" = --check ]; then check=true; shift; set -- "$1/svg" "$1"; fi
[ $# -eq 2 ] || { echo "usage: $0 OUT_DIR DATA_DIR | --check DATA_DIR" >&2; exit 2; }
out=$1 data=$2
mkdir -p "$out" "$data"

$LUA -e "package.path='./lua/?.lua;./lua/?/init.lua;'..package.path
         package.cpath='./$BUILD/?.so;'..package.cpath" tools/plots/plots.lua "$data"
for f in $FIGURES; do
  gnuplot -e "data='$data'; out='$out/$f.svg'" "tools/plots/$f.gp"
done

if $check; then
  stale=""
  for f in $FIGURES; do
    cmp -s "$out/$f.svg" "docs/img/$f.svg" || stale="$stale docs/img/$f.svg"
  done
  if [ -n "$stale" ]; then
    echo "plots-check: these figures differ from what the library draws now:$stale" >&2
    echo "plots-check: run 'make plots' and commit docs/img/" >&2
    exit 1
  fi
  echo "plots-check: docs/img/ matches the library's output ($FIGURES)"
else
  echo "plots: wrote $(for f in $FIGURES; do printf '%s ' "$out/$f.svg"; done)"
fi
