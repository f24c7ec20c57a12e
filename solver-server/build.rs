//! Compiles `proto/solver/v1/solver.proto` with pure-Rust `protox` (no system `protoc`), generates
//! the tonic server and client, and writes the descriptor set that reflection serves.

use std::path::PathBuf;

use prost::Message as _;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    // `compile_fds` cannot know which files it was given, so say it ourselves.
    println!("cargo:rerun-if-changed=../proto");
    let fds = protox::compile(["solver/v1/solver.proto"], ["../proto"])?;
    let out_dir = PathBuf::from(std::env::var("OUT_DIR")?);
    std::fs::write(out_dir.join("solver_descriptor.bin"), fds.encode_to_vec())?;
    tonic_prost_build::configure()
        .build_server(true)
        .build_client(true)
        .compile_fds(fds)?;
    Ok(())
}
