# bench_threads runs walker ranges on a plain pthread pool (the library starts no threads).
find_package(Threads REQUIRED)
target_link_libraries(bench_threads PRIVATE Threads::Threads)
