/* A stand-in for libnvidia-ml.so.1 with known answers, so that bench's energy figures are tested on a
 * machine without a GPU (BX_NVML_LIBRARY names it). One card, at PCI 0000:01:00.0, drawing 250 W from
 * the moment NVML starts: its energy counter grows by 250 J per second and its power reads 250 W. The
 * environment picks a misbehaviour:
 *   FAKE_NVML=refuse      nvmlInit fails (a driver/library mismatch)
 *   FAKE_NVML=no-counter  no energy counter (older cards): power readings only
 *   FAKE_NVML=no-power    neither counter nor power
 * Return codes as NVML's: 0 success, 3 not supported, 6 not found, 9 driver not loaded. */
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double t_start;
static const char* mode(void) {
  const char* m = getenv("FAKE_NVML");
  return m ? m : "";
}
static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}
static int card;

int nvmlInit_v2(void) {
  if (!strcmp(mode(), "refuse")) return 9;
  t_start = now();
  return 0;
}
int nvmlShutdown(void) { return 0; }
const char* nvmlErrorString(int r) { return r == 9 ? "Driver Not Loaded" : r == 3 ? "Not Supported" : r == 6 ? "Not Found" : "Unknown Error"; }
int nvmlSystemGetDriverVersion(char* v, unsigned n) {
  strncpy(v, "999.01-fake", n);
  return 0;
}
int nvmlDeviceGetHandleByPciBusId_v2(const char* id, void** dev) {
  if (strcmp(id, "0000:01:00.0")) return 6;
  *dev = &card;
  return 0;
}
int nvmlDeviceGetTotalEnergyConsumption(void* dev, unsigned long long* mj) {
  (void)dev;
  if (!strcmp(mode(), "no-counter") || !strcmp(mode(), "no-power")) return 3;
  *mj = (unsigned long long)((now() - t_start) * 250000.0) + 123456789ULL;  /* since "driver load": an offset */
  return 0;
}
int nvmlDeviceGetPowerUsage(void* dev, unsigned* mw) {
  (void)dev;
  if (!strcmp(mode(), "no-power")) return 3;
  *mw = 250000;
  return 0;
}
int nvmlDeviceGetEnforcedPowerLimit(void* dev, unsigned* mw) {
  (void)dev;
  *mw = 700000;
  return 0;
}
int nvmlDeviceGetClockInfo(void* dev, int type, unsigned* mhz) {
  (void)dev;
  *mhz = type == 1 ? 1755 : 2619;
  return 0;
}
int nvmlDeviceGetMaxClockInfo(void* dev, int type, unsigned* mhz) {
  (void)dev;
  *mhz = type == 1 ? 1980 : 2619;
  return 0;
}
