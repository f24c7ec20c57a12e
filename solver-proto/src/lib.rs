//! The gRPC contract of the puzzle-solving service, as Rust code: what a client (or any other Rust
//! caller) depends on instead of the whole server.
//!
//! - [`v1`]: `proto/solver/v1/solver.proto`, package `solver.v1`: the `Solver` service (three
//!   bidirectional streams), served unchanged for the callers that use it.
//! - [`v2`]: `proto/solver/v2/solver.proto`, package `solver.v2`: `SolverService` with unary
//!   `Solve`, `SolveStream`, `Hint`, `Scramble`, `Verify` and `SolveWatch` (one case with its
//!   progress streamed while it runs).
//! - [`FILE_DESCRIPTOR_SET`]: one encoded `FileDescriptorSet` holding both packages and every file
//!   they import (`google/rpc/status.proto`, the well-known types), plus
//!   `google/rpc/error_details.proto`, for server reflection: a client that knows only the address
//!   can find every message, and decode the details of an error.
//!
//! Each module holds the messages, a tonic client (`v2::solver_service_client::SolverServiceClient`)
//! and a tonic server (`v2::solver_service_server::SolverServiceServer` with its trait), generated
//! at build time from `proto/` by pure-Rust `protox` (no `protoc` needed).
//!
//! # `google.rpc` types
//!
//! `solver.v2` reports errors in the richer error model: `google.rpc.Status` with details such as
//! `google.rpc.BadRequest` and `google.rpc.RetryInfo`. These are not generated here: the generated
//! code uses [`tonic_types::pb`] (re-exported as [`tonic_types`]), so
//! `v2::solve_response::Outcome::Error` holds a [`tonic_types::Status`], the very type that
//! tonic-types' [`StatusExt`](tonic_types::StatusExt) (details of a call's `tonic::Status`) and
//! [`RpcStatusExt`](tonic_types::RpcStatusExt) (details of an in-band status) build and read.
//! Generating our own copy would give two different Rust types for one `google.rpc.Status` and a
//! conversion between them at every error.
//!
//! ```
//! use solver_proto::v2::{SlidingPuzzle, SolveRequest, solve_request::Puzzle};
//!
//! let request = SolveRequest {
//!     id: "a".to_owned(),
//!     puzzle: Some(Puzzle::Sliding(SlidingPuzzle {
//!         rows: 3,
//!         cols: 3,
//!         start: vec![1, 2, 3, 4, 5, 6, 7, 0, 8],
//!         target: Vec::new(),
//!     })),
//!     ..SolveRequest::default()
//! };
//! assert_eq!(request.id, "a");
//! ```

pub use tonic_types;

/// The code generated from `proto/solver/v1/solver.proto`: messages,
/// `solver_client::SolverClient` and `solver_server::SolverServer`.
pub mod v1 {
    #![expect(
        clippy::allow_attributes,
        reason = "prost writes #[allow] on generated oneofs; this code is generated, not ours"
    )]
    tonic::include_proto!("solver.v1");
}

/// The code generated from `proto/solver/v2/solver.proto`: messages,
/// `solver_service_client::SolverServiceClient` and `solver_service_server::SolverServiceServer`.
pub mod v2 {
    #![expect(
        clippy::allow_attributes,
        reason = "prost writes #[allow] on generated oneofs; this code is generated, not ours"
    )]
    tonic::include_proto!("solver.v2");
}

/// The encoded `FileDescriptorSet` of `solver.v1`, `solver.v2` and the files they use
/// (`google.rpc` status and error details, the well-known types), served by reflection.
pub const FILE_DESCRIPTOR_SET: &[u8] =
    include_bytes!(concat!(env!("OUT_DIR"), "/solver_descriptor.bin"));

#[cfg(test)]
mod tests {
    use prost::Message as _;
    use prost_types::FileDescriptorSet;

    use super::FILE_DESCRIPTOR_SET;

    fn descriptor_set() -> FileDescriptorSet {
        FileDescriptorSet::decode(FILE_DESCRIPTOR_SET).unwrap()
    }

    /// Fully qualified names of every service in the set.
    fn services(set: &FileDescriptorSet) -> Vec<String> {
        set.file
            .iter()
            .flat_map(|file| {
                file.service
                    .iter()
                    .map(move |service| format!("{}.{}", file.package(), service.name()))
            })
            .collect()
    }

    #[test]
    fn the_descriptor_set_holds_both_services() {
        let services = services(&descriptor_set());
        assert!(
            services.contains(&"solver.v1.Solver".to_owned()),
            "{services:?}"
        );
        assert!(
            services.contains(&"solver.v2.SolverService".to_owned()),
            "{services:?}"
        );
    }

    #[test]
    fn the_descriptor_set_holds_every_file_it_needs() {
        let set = descriptor_set();
        let names: Vec<_> = set
            .file
            .iter()
            .map(prost_types::FileDescriptorProto::name)
            .collect();
        for name in [
            "solver/v1/solver.proto",
            "solver/v2/solver.proto",
            "google/rpc/status.proto",
            "google/rpc/error_details.proto",
            "google/protobuf/any.proto",
            "google/protobuf/duration.proto",
        ] {
            assert!(names.contains(&name), "{name} missing from {names:?}");
        }
        // Every import is in the set, so reflection can resolve each file on its own.
        for file in &set.file {
            for dependency in &file.dependency {
                assert!(
                    names.contains(&dependency.as_str()),
                    "{} imports {dependency}, which is missing",
                    file.name()
                );
            }
        }
    }

    #[test]
    fn v2_solve_and_solve_stream_share_their_messages() {
        let set = descriptor_set();
        let v2 = set
            .file
            .iter()
            .find(|file| file.package() == "solver.v2")
            .unwrap();
        let methods: Vec<_> = v2.service[0]
            .method
            .iter()
            .map(|method| {
                (
                    method.name(),
                    method.input_type(),
                    method.output_type(),
                    method.client_streaming(),
                    method.server_streaming(),
                )
            })
            .collect();
        assert_eq!(
            methods,
            [
                (
                    "Solve",
                    ".solver.v2.SolveRequest",
                    ".solver.v2.SolveResponse",
                    false,
                    false
                ),
                (
                    "SolveStream",
                    ".solver.v2.SolveRequest",
                    ".solver.v2.SolveResponse",
                    true,
                    true
                ),
                (
                    "Hint",
                    ".solver.v2.HintRequest",
                    ".solver.v2.HintResponse",
                    false,
                    false
                ),
                (
                    "Scramble",
                    ".solver.v2.ScrambleRequest",
                    ".solver.v2.ScrambleResponse",
                    false,
                    false
                ),
                (
                    "Verify",
                    ".solver.v2.VerifyRequest",
                    ".solver.v2.VerifyResponse",
                    false,
                    false
                ),
                (
                    "SolveWatch",
                    ".solver.v2.SolveWatchRequest",
                    ".solver.v2.SolveWatchResponse",
                    false,
                    true
                ),
            ]
        );
    }

    /// The in-band error is tonic-types' `Status`, so its helpers read the details directly.
    #[test]
    fn an_in_band_error_is_the_tonic_types_status() {
        use tonic_types::{BadRequest, ErrorDetails, RpcStatusExt as _, StatusExt as _};

        let details = ErrorDetails::with_bad_request(vec![tonic_types::FieldViolation::new(
            "sliding.start",
            "tile 7 appears twice",
        )]);
        let call_status =
            tonic::Status::with_error_details(tonic::Code::InvalidArgument, "bad start", details);
        let in_band = tonic_types::Status::decode(call_status.details()).unwrap();
        let response = crate::v2::SolveResponse {
            id: "a".to_owned(),
            outcome: Some(crate::v2::solve_response::Outcome::Error(in_band)),
            ..crate::v2::SolveResponse::default()
        };
        let decoded =
            crate::v2::SolveResponse::decode(response.encode_to_vec().as_slice()).unwrap();
        let Some(crate::v2::solve_response::Outcome::Error(status)) = decoded.outcome else {
            panic!("{decoded:?}");
        };
        assert_eq!(status.code, i32::from(tonic::Code::InvalidArgument));
        let bad: BadRequest = status.get_details_bad_request().unwrap();
        assert_eq!(bad.field_violations[0].field, "sliding.start");
    }
}
