// qpow kernels of the full matrix (BX_QPOW_KERNELS=all, the default): each ladder minus one shortcut.
// The host runs these variants in every build.
#include "gpu/kernels/qpow_search.cuh"

namespace bx::kern {
void qpow_tu_select_matrix(int dev) { qpow_select(dev); }
bool qpow_tu_matrix(Variant v, const QpowTuCall& c) {
#if defined(BX_QPOW_KERNELS_ALL)
  switch (v) {
    BX_QPOW_TU_CASE(Variant::gl64_nomid)
    BX_QPOW_TU_CASE(Variant::gl64_nopre)
    BX_QPOW_TU_CASE(Variant::gl64_noer)
    BX_QPOW_TU_CASE(Variant::gl64_nofold)
    BX_QPOW_TU_CASE(Variant::p32_nomid)
    BX_QPOW_TU_CASE(Variant::p32_nopre)
    BX_QPOW_TU_CASE(Variant::p32_noer)
    BX_QPOW_TU_CASE(Variant::p32_nofold)
    BX_QPOW_TU_CASE(Variant::x32_nomid)
    BX_QPOW_TU_CASE(Variant::x32_nopre)
    BX_QPOW_TU_CASE(Variant::x32_noer)
    BX_QPOW_TU_CASE(Variant::x32_nofold)
    BX_QPOW_TU_CASE(Variant::x32_nodefer)
    default:
      return false;
  }
#else
  (void)v, (void)c;
  return false;
#endif
}
}  // namespace bx::kern
