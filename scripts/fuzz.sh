#!/usr/bin/env bash
# Fuzzing: builds the libFuzzer targets of Fuzz/ (release, with AddressSanitizer) and runs each for
# a bounded time, starting from its seed corpus in Fuzz/Corpus/<target>.
#
#   scripts/fuzz.sh [SECONDS] [TARGET...]     SECONDS per target (default 60); all targets by default
#
# What a run finds goes under Fuzz/.build/ (ignored by git): the grown corpus in corpus/<target>
# (kept, so the next run goes on from there; every run first replays it, so delete it if it grows
# large enough to slow a short run), each target's log in logs/, and a crashing input
# in crashes/<target>/. The script prints the executions of each target and exits non-zero if
# any target crashed (a trap, a sanitizer report, a timeout or running out of memory), with the
# command that reproduces it. A crash fixed: keep its input as a seed in Fuzz/Corpus/<target>
# and as a regression test (FuzzRegressionTests.swift in the test target of the module).
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=${1:-${FUZZ_SECONDS:-60}}
shift || true
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  targets=(FuzzSpec FuzzCriticalMoments FuzzAcceptLanguage FuzzQueryParameters)
fi

# `--sanitize fuzzer` tells SwiftPM to link libFuzzer's main (and instruments the C code, libyaml
# and BoringSSL, for coverage); `-Xswiftc -sanitize=fuzzer,address` adds AddressSanitizer as one
# flag. Not `--sanitize fuzzer --sanitize address`: SwiftPM passes those as two -sanitize= flags
# in no fixed order and swiftc keeps only the last, so a build now and then had no coverage
# instrumentation at all (and rebuilt everything whenever the order changed). -enable-testing:
# FuzzQueryParameters reaches MicroHTTP's internal query-item reader.
build=(swift build --package-path Fuzz -c release --sanitize fuzzer
  -Xswiftc -sanitize=fuzzer,address -Xswiftc -enable-testing)
echo "== building the fuzz targets: ${build[*]}"
build_targets() { "${build[@]}" 2>&1 | grep -v "Cannot export local symbol '__asan_"; }
# SwiftPM does not always notice source files added to the main package, a path dependency of
# Fuzz/: a failed build is tried once more from scratch, keeping the corpus, crashes and logs.
if ! build_targets; then
  echo "== the build failed; building again from scratch"
  find Fuzz/.build -mindepth 1 -maxdepth 1 ! -name corpus ! -name crashes ! -name logs -exec rm -rf {} +
  build_targets || { echo "fuzz: build failed" >&2; exit 1; }
fi
bin=$("${build[@]}" --show-bin-path)

# LeakSanitizer is off: Swift keeps tag bits in the spare bits of the pointers of multi-payload
# (and indirect) enums, which LeakSanitizer cannot follow, so what the render cache holds is
# reported as leaked at exit; and Foundation's Data(contentsOf:) leaks its 4 KiB buffer for an
# empty file (swift-foundation's bug, not alertd's). Swift's own backtracer is off too: libFuzzer
# reports a trap with its stack (including "Swift runtime failure: …"), and the backtracer's
# memory reader trips AddressSanitizer after it, burying that report.
work=Fuzz/.build
failed=()
summary=()
for target in "${targets[@]}"; do
  corpus=$work/corpus/$target
  crashes=$work/crashes/$target
  log=$work/logs/$target.log
  mkdir -p "$corpus" "$crashes" "$(dirname "$log")"
  dict=()
  [ -f "Fuzz/Dictionaries/$target.dict" ] && dict=(-dict="Fuzz/Dictionaries/$target.dict")

  echo "== $target: $seconds s (log: $log)"
  status=0
  # The first corpus folder receives new inputs; the seeds are only read.
  SWIFT_BACKTRACE=enable=no ASAN_OPTIONS="detect_leaks=0:${ASAN_OPTIONS:-}" "$bin/$target" "$corpus" "Fuzz/Corpus/$target" "${dict[@]}" \
    -max_total_time="$seconds" -timeout=20 -rss_limit_mb=2048 -max_len=8192 -detect_leaks=0 \
    -print_final_stats=1 -artifact_prefix="$crashes/" >"$log" 2>&1 || status=$?

  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
  line="$target: ${runs:-?} executions (${rate:-?}/s), corpus $(find "$corpus" -type f | wc -l) inputs"
  if [ "$status" -ne 0 ]; then
    input=$(sed -n 's/.*Test unit written to \(.*\)$/\1/p' "$log" | tail -1)
    line="$line, FAILED (exit $status)"
    failed+=("$target")
    echo "-- $target failed; the end of its log:"
    grep -v '^#[0-9]' "$log" | tail -60
    if [ -n "$input" ]; then
      echo "-- the input is in $input; reproduce from the repository root with:"
      echo "   SWIFT_BACKTRACE=enable=no ASAN_OPTIONS=detect_leaks=0 $bin/$target $input"
    fi
  fi
  summary+=("$line")
  echo "$line"
done

echo "== fuzzing summary ($seconds s per target)"
printf '%s\n' "${summary[@]}"
if [ ${#failed[@]} -ne 0 ]; then
  echo "fuzz: ${#failed[@]} target(s) crashed: ${failed[*]}" >&2
  exit 1
fi
