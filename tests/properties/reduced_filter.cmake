# The reduced property run: the sanitizer presets' (tests/properties) and the
# aarch64 build's under qemu (tests/aarch64). Properties whose cases are small
# or few (status rules, in-place, forms, exports, hard cases) and the accuracy
# of two kernels.
set(BNG_PROP_REDUCED_FILTER
    "Status.*:EveryFault.*:InPlace.*:FormsIdentical.*:Exports.*:Runner.*:HardCases.*:Accuracy.holds/mt7004_hp_shared_params:Accuracy.holds/ft78ne_fp_shared_flat")
