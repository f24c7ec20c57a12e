//! `solver-client scramble --size RxC --distance D [--seed S]`: a board at exactly that
//! optimal distance from the goal, and how it was drawn.

use std::hash::BuildHasher as _;
use std::io::{self, Write as _};
use std::process::ExitCode;

use crate::link::Link;
use solver_core::tiles::grid::Grid;
use solver_proto::v2 as pb;
use solver_store::DataDir;
use std::sync::Arc;

use super::boards::{AnyBoard, line, write_board};
use super::connection::{Client, Connection};
use super::json::{print_json, stats_json};
use crate::output::Output;

/// `--size`: `RxC` as `solve sliding --size` takes it, or `eight` (3x3) and `fifteen` (4x4).
fn parse_size(text: &str) -> Result<Grid, String> {
    match text.trim() {
        "eight" => Grid::new(3, 3).map_err(|e| e.to_string()),
        "fifteen" => Grid::new(4, 4).map_err(|e| e.to_string()),
        _ => crate::family::sliding::any_shape::parse_size(text),
    }
}

/// `scramble`'s arguments.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "The first line of the output is the board as `solve`, `hint` and \
                        `verify` read it."
)]
pub(crate) struct Args {
    /// The shape, rows x columns (2..=8 each), e.g. `3x3`, `4x4` or `2x4` (also `eight`,
    /// `fifteen`).
    #[arg(long, value_name = "RxC", value_parser = parse_size)]
    size: Grid,
    /// The optimal distance from the standard goal (blank last) the board must have, exactly (at
    /// most 31 for 3x3, 80 for 4x4; other shapes: at most their known radius, which the server
    /// checks).
    #[arg(long, value_name = "D")]
    distance: u32,
    /// The seed of the draw: the same size, distance and seed give the same board. Default: a
    /// random one, printed with the board.
    #[arg(long, value_name = "S")]
    seed: Option<u64>,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
}

/// Runs `scramble`.
pub(super) fn run(
    server: Option<&str>,
    link: &Arc<Link>,
    data: DataDir,
    args: Args,
    progress: bool,
) -> anyhow::Result<ExitCode> {
    let seed = args.seed.unwrap_or_else(|| {
        std::collections::hash_map::RandomState::new().hash_one(std::time::SystemTime::now())
    });
    let kind = crate::family::sliding::query::tables(args.size);
    let (rows, cols) = (side(args.size.rows()), side(args.size.cols()));
    let connection = Connection::open(server, link, data, kind, progress)?;
    let request = pb::ScrambleRequest {
        rows,
        cols,
        distance: args.distance,
        seed,
    };
    let call = |mut client: Client, link: Arc<Link>| async move {
        client.scramble(link.request(request)).await
    };
    connection.answer(
        &format!(
            "scrambling a {} board at distance {} (a shape's first use may build its tables)",
            args.size, args.distance
        ),
        args.json,
        call,
        |response| {
            let board = AnyBoard::from_cells(args.size, &response.board)
                .map_err(|e| anyhow::anyhow!("the server sent a board that is not one: {e}"))?;
            if args.json {
                print_json(&serde_json::json!({
                    "rows": rows,
                    "cols": cols,
                    "board": response.board,
                    "distance": response.distance,
                    "seed": response.seed,
                    "sampling": sampling_name(response.sampling()),
                    "stats": stats_json(response.stats.as_ref()),
                }))?;
            } else {
                text(args.size, &board, &response)?;
            }
            Ok(())
        },
    )
}

/// A side of a shape for the wire (2..=8).
fn side(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// The sampling's name in JSON (`uniform`, `random_walk`).
fn sampling_name(sampling: pb::Sampling) -> &'static str {
    match sampling {
        pb::Sampling::Uniform => "uniform",
        pb::Sampling::RandomWalk => "random_walk",
        pb::Sampling::Unspecified => "unspecified",
    }
}

/// The board for a person: on one line first (for `solve` and the others), then drawn, then how.
fn text(size: Grid, board: &AnyBoard, response: &pb::ScrambleResponse) -> io::Result<()> {
    let mut out = Output::stdout();
    writeln!(out, "{}", line(&response.board))?;
    write_board(&mut out, board)?;
    writeln!(
        out,
        "distance: {} (optimal, to the standard goal with the blank last)",
        response.distance
    )?;
    writeln!(out, "seed: {}", response.seed)?;
    let how = match response.sampling() {
        pb::Sampling::Uniform => {
            format!("uniformly, every {size} board at that distance equally likely")
        }
        pb::Sampling::RandomWalk => "the end of a random walk from the goal, kept because its \
                                     optimal distance is the one asked (every board at that \
                                     distance can come out, not all equally likely)"
            .to_owned(),
        pb::Sampling::Unspecified => "not said by the server".to_owned(),
    };
    writeln!(out, "drawn: {how}")?;
    out.flush()
}
