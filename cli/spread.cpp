#include "cli/json_out.hpp"
#include "cli/spread.hpp"

#include <algorithm>
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "suite/hex.hpp"
#include "cli/run_result.hpp"

extern char** environ;

namespace bx {
namespace {

// argv[1..] without the options a child gets its own values of (both "--opt V" and "--opt=V" forms).
std::vector<std::string> child_args(int argc, char** argv, std::initializer_list<const char*> valued,
                                    std::initializer_list<const char*> flags) {
  std::vector<std::string> out;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    bool drop = false;
    for (const char* o : valued) {
      if (a == o) {
        drop = true;
        ++i;  // and its value
      } else if (a.rfind(std::string(o) + "=", 0) == 0) {
        drop = true;
      }
      if (drop) break;
    }
    for (const char* f : flags) drop = drop || a == f;
    if (!drop) out.push_back(a);
  }
  return out;
}

struct Child {
  int gpu = -1;
  std::string log, result;
  pid_t pid = -1;
  int status = 0;
  double seconds = 0;
  std::chrono::steady_clock::time_point t0;
};

// This binary again, with `args`, stdout and stderr into `log`; throws when it cannot start.
pid_t spawn_self(const std::vector<std::string>& args, const std::string& log) {
  std::vector<char*> av;
  std::string self = "/proc/self/exe";
  av.push_back(self.data());
  std::vector<std::string> copy = args;
  for (auto& a : copy) av.push_back(a.data());
  av.push_back(nullptr);
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&fa, 1, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_adddup2(&fa, 1, 2);
  pid_t pid = -1;
  const int rc = posix_spawn(&pid, self.c_str(), &fa, nullptr, av.data(), environ);
  posix_spawn_file_actions_destroy(&fa);
  if (rc != 0) throw std::runtime_error("cannot start a child process for " + log + ": " + std::to_string(rc));
  return pid;
}

std::string last_line(const std::string& path) {
  std::ifstream f(path);
  std::string line, last;
  while (std::getline(f, line))
    if (line.find_first_not_of(" \t\r") != std::string::npos) last = line;
  return last.empty() ? "(none)" : last;
}

std::string describe_exit(int status) {
  if (WIFEXITED(status)) return "exit " + std::to_string(WEXITSTATUS(status));
  if (WIFSIGNALED(status)) return "killed by signal " + std::to_string(WTERMSIG(status));
  return "status " + std::to_string(status);
}

std::string work_dir() {
  const char* t = std::getenv("TMPDIR");
  std::string tmpl = std::string(t && *t ? t : "/tmp") + "/bitexact-spread-XXXXXX";
  if (!mkdtemp(tmpl.data())) throw InputError("cannot create a directory for the GPUs' logs under " + tmpl);
  return tmpl;
}

// One child per GPU of ctx.devices, each with `args_of(g, G)`; waits for all of them.
std::vector<Child> run_children(const RunContext& ctx, const std::string& dir,
                                const std::function<std::vector<std::string>(size_t g, size_t n, const Child&)>& args_of) {
  std::vector<Child> kids;
  const size_t n = ctx.devices.gpus.size();
  for (size_t g = 0; g < n; ++g) {
    Child c;
    c.gpu = ctx.devices.gpus[g];
    // by part, not by GPU: a list may name one GPU twice (--device 0,0)
    c.log = dir + "/part" + std::to_string(g) + "-gpu" + std::to_string(c.gpu) + ".log";
    c.result = dir + "/part" + std::to_string(g) + "-gpu" + std::to_string(c.gpu) + ".json";
    c.t0 = std::chrono::steady_clock::now();
    c.pid = spawn_self(args_of(g, n, c), c.log);
    kids.push_back(c);
  }
  for (auto& c : kids) {
    while (waitpid(c.pid, &c.status, 0) < 0 && errno == EINTR) {
    }
    c.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - c.t0).count();
  }
  return kids;
}

bool exited_normally(const Child& c) {  // 0: passed, 1: a failed verdict; anything else is a crash or bad input
  return WIFEXITED(c.status) && (WEXITSTATUS(c.status) == 0 || WEXITSTATUS(c.status) == 1);
}

}  // namespace

DeviceSelection run_devices(const std::string& flag) {
  if (flag.empty() || flag == "all") return gpu_count() > 0 ? parse_devices("gpu") : parse_devices("cpu");
  if (flag.find(',') == std::string::npos) return parse_devices(flag);
  if (flag.front() == ',' || flag.back() == ',' || flag.find(",,") != std::string::npos)
    throw InputError("--device " + flag + ": empty entry in the list");
  DeviceSelection sel;  // a list of GPU indices, one process each; an index may repeat (two parts on one GPU)
  sel.cpu = false;
  std::istringstream entries(flag);
  for (std::string one; std::getline(entries, one, ',');) {  // no empty entry: rejected above
    const DeviceSelection d = parse_devices(one);
    if (d.cpu || d.gpus.size() != 1) throw InputError("--device " + flag + ": a list holds GPU indices only, got '" + one + "'");
    sel.gpus.push_back(d.gpus[0]);
  }
  return sel;
}

int spread_verify(int argc, char** argv, const std::string& family, const RunContext& ctx) {
  const std::string dir = work_dir();
  const size_t n = ctx.devices.gpus.size();
  std::printf("verify %s on %zu GPUs: one process each, part g of %zu of %s; logs in %s\n", family.c_str(), n, n,
              ctx.shard.active() ? ("shard " + ctx.shard.spec()).c_str() : "the range", dir.c_str());
  auto kids = run_children(ctx, dir, [&](size_t g, size_t count, const Child& c) {
    auto a = child_args(argc, argv, {"--device", "--shard", "--shard-count", "--result"}, {"--json", "--quiet"});
    const std::string plan = ctx.shard.then({g, count}).spec();
    for (const std::string& x : {std::string("--device"), std::to_string(c.gpu), std::string("--shard"), plan,
                                 std::string("--result"), c.result, std::string("--quiet")})
      a.push_back(x);
    std::printf("  gpu%d %s: --shard %s\n", c.gpu, gpu_name(c.gpu).c_str(), plan.c_str());
    return a;
  });
  std::vector<RunResult> parts;
  std::vector<std::pair<size_t, std::string>> failed;  // part, why
  for (size_t g = 0; g < n; ++g) {
    const Child& c = kids[g];
    std::string why;
    if (!exited_normally(c)) why = describe_exit(c.status);
    else {
      try {
        parts.push_back(read_result_file(c.result));
      } catch (const std::exception& e) {
        why = "no result: " + std::string(e.what());
      }
    }
    if (!why.empty()) {
      failed.push_back({g, why});
      continue;
    }
    const RunResult& r = parts.back();
    std::printf("  gpu%d: %s %s in %.1f s wall\n", c.gpu, range_text(r, r.covered).c_str(), r.pass ? "PASS" : "FAIL", c.seconds);
    for (auto& [impl, s] : r.seconds.items())
      if (s.get<double>() > 0)
        std::printf("    %-44s %10.2f s  %12.4g %s/s\n", impl.c_str(), s.get<double>(), double(r.covered.size) / s.get<double>(),
                    r.unit.c_str());
  }
  // A failed part names its GPU and the range it held: the range's exact bounds when another part's
  // document declares the range (the plan is deterministic), else its shard.
  for (const auto& [g, why] : failed) {
    const Child& c = kids[g];
    const ShardPlan held = ctx.shard.then({g, n});
    std::string range = "shard " + held.spec();
    if (!parts.empty()) range += " (" + range_text(parts.front(), held.part(parts.front().range_size)) + ")";
    std::fprintf(stderr, "bitexact: error: gpu%d (%s) failed on %s: %s; its last line: %s (log %s)\n", c.gpu,
                 gpu_name(c.gpu).c_str(), range.c_str(), why.c_str(), last_line(c.log).c_str(), c.log.c_str());
  }
  if (parts.empty()) return 1;
  Merged m = merge_results(parts, ctx.shard.part(parts.front().range_size));
  // Per part: its GPU, exit, wall time and each implementation's own (kernel) seconds, so a reader can
  // compute the per-GPU rates and the scaling (the parts run at once: the slowest part bounds the run).
  for (size_t g = 0, k = 0; g < n; ++g) {
    const Child& c = kids[g];
    json e = {{"part", g}, {"gpu", c.gpu}, {"name", gpu_name(c.gpu)}, {"exit", describe_exit(c.status)}, {"wall_seconds", c.seconds}};
    const bool ok = std::none_of(failed.begin(), failed.end(), [&](const auto& f) { return f.first == g; });
    if (ok) e["seconds"] = parts[k++].seconds;
    m.result.details["gpus"].push_back(e);
  }
  m.result.pass = m.result.pass && failed.empty() && m.problems.empty();
  std::printf("\nverify %s: %zu GPU part(s) merged\n", family.c_str(), parts.size());
  print_result_table(m.result);
  for (const auto& p : m.problems) std::fprintf(stderr, "verify %s: %s\n", family.c_str(), p.c_str());
  emit_result(ctx, m.result);
  std::printf("verify %s %s\n", family.c_str(), m.result.pass ? "PASSED" : "FAILED");
  return m.result.pass ? 0 : 1;
}

int spread_bench(int argc, char** argv, const RunContext& ctx) {
  const std::string dir = work_dir();
  std::printf("bench on %zu GPUs at once, one process each; logs in %s\n", ctx.devices.gpus.size(), dir.c_str());
  auto kids = run_children(ctx, dir, [&](size_t, size_t, const Child& c) {
    auto a = child_args(argc, argv, {"--device"}, {"--json"});  // a child's tables go to its log; --json is ours
    a.push_back("--device");
    a.push_back(std::to_string(c.gpu));
    return a;
  });
  int rc = 0;
  for (const Child& c : kids) {
    std::printf("\n===== gpu%d %s: %s in %.1f s\n", c.gpu, gpu_name(c.gpu).c_str(), describe_exit(c.status).c_str(), c.seconds);
    std::ifstream f(c.log);
    std::stringstream ss;
    ss << f.rdbuf();
    std::fputs(ss.str().c_str(), stdout);
    if (!exited_normally(c))
      std::fprintf(stderr, "bitexact: error: gpu%d (%s) bench failed: %s; its last line: %s\n", c.gpu, gpu_name(c.gpu).c_str(),
                   describe_exit(c.status).c_str(), last_line(c.log).c_str());
    if (!(WIFEXITED(c.status) && WEXITSTATUS(c.status) == 0)) rc = 1;
    if (ctx.json)
      json_out::put({"gpus", "gpu" + std::to_string(c.gpu)}, json{{"name", gpu_name(c.gpu)}, {"exit", describe_exit(c.status)},
                                                                 {"wall_seconds", c.seconds}, {"log", c.log}});
  }
  return rc;
}

}  // namespace bx
