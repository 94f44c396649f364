// roofline-bench: verifies and times the CPU (and CUDA) kernels, puts them on the roofline with
// the core's FLOP and byte counts, and writes JSON and CSV. See docs/benchmark.md.
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <fstream>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "../cpu/backend.hpp"
#include "analysis.hpp"
#include "output.hpp"
#include "roofline/error.hpp"

#if defined(ROOFLINE_HAVE_CUDA)
#include "../cuda/backend.hpp"
#endif

namespace {

constexpr const char* usage =
    "usage: roofline-bench [--quick] [--backend cpu|cuda|all] [--threads N] [--json FILE] [--csv FILE]\n"
    "                      [--only A,B,...] [--prefetch none|ahead] [--isa ID] [--int-dot ID]\n"
    "\n"
    "Verifies every kernel against a reference, then times it (warm-ups, repetitions; min / median /\n"
    "max) and places it on the roofline: intensity and FLOP/s from the core's own counts, the roof\n"
    "predicted from the measured ceilings and, for a GPU, from its datasheet entry.\n"
    "\n"
    "  --quick         small sizes, a few repetitions (CI); numbers are not meaningful\n"
    "  --backend B     cpu (default), cuda, or all (every backend this build and machine have)\n"
    "  --threads N     CPU threads (default: all hardware threads)\n"
    "  --json FILE     write the report as JSON (schema roofline-bench/1); with --backend all,\n"
    "                  one file per backend: out.json -> out.cpu.json, out.cuda.json\n"
    "  --csv FILE      the same kernels as CSV, units in the column names (same naming rule)\n"
    "  --only A,B,...  run only the kernels whose id starts with one of these prefixes\n"
    "                  (ceilings then come from what ran); levels: the memory hierarchy\n"
    "                  sweep (L1, L2, L3, DRAM), with copy and triad for the ceiling\n"
    "  --prefetch P    the CPU GEMVs' software prefetch: ahead (the default: 2 KiB ahead in\n"
    "                  each row stream, into L1) or none (the hardware's alone); the report\n"
    "                  names it (gemvPrefetch)\n"
    "  --isa ID        the CPU float kernels' instruction set: generic, avx2 or avx512 (x86-64);\n"
    "                  default: the best this CPU runs, chosen at run time; the report names it (isa)\n"
    "  --int-dot ID    the CPU integer-dot GEMVs' instruction set: scalar, avx2, avx-vnni,\n"
    "                  avx512-vnni (x86-64), neon, sdot (aarch64); default: the best this CPU runs\n"
    "                  (intDot in the report)\n"
    "  --help          this text\n"
    "\n"
    "Exit status: 0 when every kernel verified, 1 on a mismatch, 2 on a usage error, 77 when\n"
    "--backend cuda was asked for and this build or machine has no CUDA backend.\n";

std::string iso_now() {
  const std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

std::string with_backend(const std::string& path, const std::string& backend, bool suffix) {
  if (!suffix || path.empty()) return path;
  const auto slash = path.rfind('/');
  const auto dot = path.rfind('.');
  if (dot == std::string::npos || (slash != std::string::npos && dot < slash)) return path + "." + backend;
  return path.substr(0, dot) + "." + backend + path.substr(dot);
}

}  // namespace

int main(int argc, char** argv) {
  rlk::Options options;
  std::string backend = "cpu", json_path, csv_path;
  std::vector<std::string> only;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "roofline-bench: %s needs a value\n%s", a.c_str(), usage);
        std::exit(2);
      }
      return argv[++i];
    };
    if (a == "--help" || a == "-h") {
      std::fputs(usage, stdout);
      return 0;
    } else if (a == "--quick") {
      options.quick = true;
    } else if (a == "--backend") {
      backend = value();
      if (backend != "cpu" && backend != "cuda" && backend != "all") {
        std::fprintf(stderr, "roofline-bench: --backend must be cpu, cuda or all, got %s\n", backend.c_str());
        return 2;
      }
    } else if (a == "--threads") {
      const std::string v = value();
      char* end = nullptr;
      const long n = std::strtol(v.c_str(), &end, 10);
      if (!end || *end || n < 1 || n > 1024) {
        std::fprintf(stderr, "roofline-bench: --threads must be an integer from 1 to 1024, got %s\n", v.c_str());
        return 2;
      }
      options.threads = unsigned(n);
    } else if (a == "--json") {
      json_path = value();
    } else if (a == "--csv") {
      csv_path = value();
    } else if (a == "--prefetch") {
      options.prefetch = value();
      if (!rlk::cpu::prefetch_id_known(options.prefetch)) {
        std::fprintf(stderr, "roofline-bench: --prefetch must be none or ahead, got %s\n", options.prefetch.c_str());
        return 2;
      }
    } else if (a == "--isa" || a == "--int-dot") {
      const std::string v = value();
      const std::string error = a == "--isa" ? rlk::cpu::isa_choice_error(v) : rlk::cpu::int_dot_choice_error(v);
      if (!error.empty()) {
        std::fprintf(stderr, "roofline-bench: %s %s: %s\n", a.c_str(), v.c_str(), error.c_str());
        return 2;
      }
      (a == "--isa" ? options.isa : options.int_dot) = v;
    } else if (a == "--only") {
      std::string list = value();
      for (std::size_t pos = 0; pos <= list.size();) {
        const std::size_t comma = std::min(list.find(',', pos), list.size());
        if (comma > pos) only.push_back(list.substr(pos, comma - pos));
        pos = comma + 1;
      }
    } else {
      std::fprintf(stderr, "roofline-bench: unknown argument %s\n%s", a.c_str(), usage);
      return 2;
    }
  }

  std::vector<std::unique_ptr<rlk::Backend>> backends;
  if (backend == "cpu" || backend == "all") backends.push_back(rlk::cpu::make_cpu_backend());
  if (backend == "cuda" || backend == "all") {
#if defined(ROOFLINE_HAVE_CUDA)
    std::string why;
    if (rlk::cuda::device_available(why)) {
      backends.push_back(rlk::cuda::make_cuda_backend());
    } else if (backend == "cuda") {
      std::fprintf(stderr, "roofline-bench: no usable CUDA device: %s\n", why.c_str());
      return 77;
    } else {
      std::fprintf(stderr, "roofline-bench: CUDA backend skipped: %s\n", why.c_str());
    }
#else
    if (backend == "cuda") {
      std::fprintf(stderr, "roofline-bench: this build has no CUDA backend (nvcc was not found)\n");
      return 77;
    }
    std::fprintf(stderr, "roofline-bench: CUDA backend skipped: this build has no CUDA backend\n");
#endif
  }

  const bool tty = isatty(STDERR_FILENO);
  bool all_ok = true;
  for (auto& be : backends) {
    rlk::bench::Report report;
    report.backend = be->id();
    report.date = iso_now();
    report.quick = options.quick;
    std::vector<rlk::Case> cases;
    try {
      cases = be->cases(options);
    } catch (const std::exception& e) {
      std::fprintf(stderr, "roofline-bench: %s backend failed to start: %s\n", be->id().c_str(), e.what());
      all_ok = false;
      continue;
    }
    if (std::find(only.begin(), only.end(), "levels") != only.end()) {
      // The sweep's DRAM level is compared with the run's bandwidth ceiling: time it too.
      for (const char* id : {"copy", "triad"})
        if (std::find(only.begin(), only.end(), id) == only.end()) only.push_back(id);
    }
    if (!only.empty()) {
      std::erase_if(cases, [&](const rlk::Case& c) {
        for (const auto& prefix : only)
          if (c.id.rfind(prefix, 0) == 0) return false;
        return true;
      });
    }
    report.machine = be->machine();
    if (report.backend == "cuda" && report.machine.catalog_id.empty())
      report.machine.catalog_id = rlk::bench::catalog_id_for(report.machine.name);
    const auto start = std::chrono::steady_clock::now();
    for (std::size_t i = 0; i < cases.size(); ++i) {
      const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      std::fprintf(stderr, "%s[%s %2zu/%zu %5.1f s] %-24s%s", tty ? "\r\033[K" : "", be->id().c_str(), i + 1,
                   cases.size(), elapsed, cases[i].id.c_str(), tty ? "" : "\n");
      std::fflush(stderr);
      rlk::bench::Row row;
      row.c = cases[i];
      try {
        row.cost = rlk::bench::cost_of(row.c);
        row.m = row.c.run();
      } catch (const std::exception& e) {
        row.m.verified = false;
        row.m.seconds.clear();
        row.m.detail = std::string("error: ") + e.what();
      }
      if (!row.m.verified) {
        report.all_verified = false;
        std::fprintf(stderr, "%sroofline-bench: %s failed verification: %s\n", tty ? "\r\033[K" : "", row.c.id.c_str(),
                     row.m.detail.c_str());
      }
      rlk::bench::summarize_times(row);
      report.rows.push_back(std::move(row));
    }
    const double total = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::fprintf(stderr, "%s[%s done in %.1f s]\n", tty ? "\r\033[K" : "", be->id().c_str(), total);

    try {
      report.measured = rlk::bench::measure_ceilings(report.rows);
      report.datasheet = rlk::bench::datasheet_ceilings(report.machine.catalog_id, report.datasheet_note);
      rlk::bench::analyse(report);
    } catch (const roofline::Error& e) {
      std::fprintf(stderr, "roofline-bench: analysis failed: %s\n", e.what());
      report.all_verified = false;
    }
    rlk::bench::print_report(std::cout, report);
    std::cout << std::endl;
    all_ok = all_ok && report.all_verified;

    const bool suffix = backend == "all";
    auto write = [&](const std::string& path, void (*writer)(std::ostream&, const rlk::bench::Report&)) {
      if (path.empty()) return;
      const std::string p = with_backend(path, report.backend, suffix);
      std::ofstream f(p);
      if (!f) {
        std::fprintf(stderr, "roofline-bench: cannot write %s\n", p.c_str());
        all_ok = false;
        return;
      }
      writer(f, report);
      std::fprintf(stderr, "wrote %s\n", p.c_str());
    };
    write(json_path, rlk::bench::write_json);
    write(csv_path, rlk::bench::write_csv);
  }
  return all_ok ? 0 : 1;
}
