/* A shared object that is not a BatchNormGrad library (no bng_* symbol): put
   where a search would find it, it shows which file a run really loaded
   (library_cli_test.cpp). */
int bngcert_decoy_library(void);
int bngcert_decoy_library(void) {
  return 21;
}
