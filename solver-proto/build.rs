//! Compiles `proto/solver/v1` and `proto/solver/v2` with pure-Rust `protox` (no system `protoc`),
//! generates the tonic servers and clients of both, and writes the one descriptor set that
//! reflection serves.

use std::path::PathBuf;

use prost::Message as _;

/// The files compiled, relative to `../proto`. Their imports (`google/rpc/status.proto`, the
/// well-known types) come along by themselves; `error_details.proto` is imported by neither but is
/// in the descriptor set so that a client that knows only the address can decode error details.
const FILES: [&str; 3] = [
    "solver/v1/solver.proto",
    "solver/v2/solver.proto",
    "google/rpc/error_details.proto",
];

fn main() -> Result<(), Box<dyn std::error::Error>> {
    // `compile_fds` cannot know which files it was given, so say it ourselves.
    println!("cargo:rerun-if-changed=../proto");
    let fds = protox::compile(FILES, ["../proto"])?;
    let out_dir = PathBuf::from(std::env::var("OUT_DIR")?);
    std::fs::write(out_dir.join("solver_descriptor.bin"), fds.encode_to_vec())?;
    tonic_prost_build::configure()
        .build_server(true)
        .build_client(true)
        // One Rust type per message: google.rpc.* are tonic-types' (its `StatusExt` and
        // `ErrorDetails` build and read them), not a second copy generated here.
        .extern_path(".google.rpc", "::tonic_types::pb")
        .compile_fds(fds)?;
    Ok(())
}
