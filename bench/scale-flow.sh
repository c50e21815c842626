#!/usr/bin/env bash
# Wall time and peak memory of eval and evolve on a simulated world of N tasks (N/10 train and
# N/10 held-out per family of the quickstart world, its simulated latency 0), one machine versus
# the phased flow (search, then S measure shards, then finish on the merged caches), each job a
# separate process on its own copy of the project, as docs/workflows/evolve-matrix.yml runs them.
# Usage: bash bench/scale-flow.sh N [S] [WORKDIR]   (needs `npm run build`; GNU time for peak RSS)
# Prints one line per process: name, wall seconds, peak RSS MB, user+sys CPU seconds; and the
# report.html size. Not a test: the figures depend on the machine and its load.
set -euo pipefail
n=${1:?tasks}; shards=${2:-4}; work=${3:-$(mktemp -d)}
root=$(cd "$(dirname "$0")/.." && pwd); cli="$root/dist/cli.js"
per=$((n / 10))
sed -e "s/counts: { train: 8, heldout: 8 }/counts: { train: $per, heldout: $per }/" \
  -e 's/scale: [0-9.]*/scale: 0/' "$root/worlds/quickstart.yaml" >"$work/world.yaml"
mkdir -p "$work/project" && (cd "$work/project" && node "$cli" init . --world ../world.yaml >/dev/null)
# At thousands of tasks a family, a few held-out draws nearly duplicate a train one (the split
# check refuses them): drop those held-out tasks, and say how many.
(cd "$root" && npm exec --silent tsx bench/disjoint-splits.ts -- "$work/project/tasks/train.jsonl" "$work/project/tasks/heldout.jsonl")
measure() { # name dir args...
  local name=$1 dir=$2; shift 2
  (cd "$dir" && /usr/bin/time -f "%e %M %U %S" -o "$work/$name.time" node "$cli" "$@" \
    >"$work/$name.log" 2>&1) || { echo "$name failed: see $work/$name.log"; exit 1; }
  read -r wall rss user sys <"$work/$name.time"
  awk -v n="$name" -v w="$wall" -v r="$rss" -v u="$user" -v s="$sys" \
    'BEGIN { printf "%-14s wall %7.1f s  peak RSS %6.0f MB  CPU %7.1f s\n", n, w, r/1024, u+s }'
}
job() { rm -rf "$work/$1"; cp -r "$work/project" "$work/$1"; }
echo "tasks $n (train $((n / 2)), held-out $((n / 2))), shards $shards, $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
job eval; measure eval "$work/eval" eval --config ecdysis.yml --split all --out out
job single; measure evolve-single "$work/single" evolve --config ecdysis.yml --out out
echo "report.html $(du -m "$work/single/out/report.html" | cut -f1) MB ($(stat -c %s "$work/single/out/report.html") bytes)"
job search; measure search "$work/search" evolve --config ecdysis.yml --out out --phase search
for i in $(seq 1 "$shards"); do
  job "shard$i"; rm -rf "$work/shard$i/out"; cp -r "$work/search/out" "$work/shard$i/out"
  mkdir -p "$work/shard$i/.ecdysis/cache"; cp -r "$work/search/.ecdysis/cache/." "$work/shard$i/.ecdysis/cache/"
  measure "measure-$i-of-$shards" "$work/shard$i" evolve --config ecdysis.yml --out out --phase measure --shard "$i/$shards"
done
job finish; rm -rf "$work/finish/out"; cp -r "$work/search/out" "$work/finish/out"; mkdir -p "$work/finish/.ecdysis/cache"
for i in $(seq 1 "$shards"); do cp -r "$work/shard$i/.ecdysis/cache/." "$work/finish/.ecdysis/cache/"; done
measure finish "$work/finish" evolve --config ecdysis.yml --out out --phase finish
node -e '
const [a, b] = process.argv.slice(1).map((f) => JSON.parse(require("fs").readFileSync(f, "utf8")));
const strip = (r) => JSON.stringify(r, (k, v) => (/At$|wallMs|elapsedMs/.test(k) ? undefined : v));
console.log("phased result.json equals one-machine (timing aside):", strip(a) === strip(b));
' "$work/single/out/result.json" "$work/finish/out/result.json"
