// qpow kernels: the oracle (plain), the three exact ladders and the lossy pair. BX_QPOW_KERNELS=one (the
// gate without a GPU) instantiates each kernel template once, for gl2x32-ptx: it proves every template
// compiles for sm_90 without paying for the whole matrix.
#include "gpu/kernels/qpow_search.cuh"

namespace bx::kern {
void qpow_tu_select_main(int dev) { qpow_select(dev); }
bool qpow_tu_main(Variant v, const QpowTuCall& c) {
  switch (v) {
    BX_QPOW_TU_CASE(Variant::gl2x32_ptx)
#if !defined(BX_QPOW_KERNELS_ONE)
    BX_QPOW_TU_CASE(Variant::plain)
    BX_QPOW_TU_CASE(Variant::gl64)
    BX_QPOW_TU_CASE(Variant::gl2x32_portable)
    BX_QPOW_TU_CASE(Variant::lossy)
    BX_QPOW_TU_CASE(Variant::lossy_model)
#endif
    default:
      return false;
  }
}
}  // namespace bx::kern
