//! How the window's process keeps memory: the renderer allocates and frees the same large
//! buffers every frame, and glibc's allocator would give them back to the system and take them
//! again each time (docs/performance.md).

/// Tells glibc's allocator to keep freed memory for reuse instead of returning it to the system
/// at once: large blocks come from the heap rather than from a mapping of their own (up to 32
/// MiB), and a heap's free top is kept up to 256 MiB. Under software rendering, a frame of the
/// 200×200 sample maps otherwise spends about 3 ms of its time faulting in fresh pages for
/// buffers it has just freed. Elsewhere (another allocator, another system) it does nothing.
#[allow(unsafe_code, reason = "mallopt is a C function; its call is the whole of the unsafe code")]
pub(crate) fn keep_freed_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: `mallopt` only sets the allocator's parameters; it is called before the app
    // starts its threads, and glibc takes its own lock for it.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, 32 << 20);
        libc::mallopt(libc::M_TRIM_THRESHOLD, 256 << 20);
    }
}
