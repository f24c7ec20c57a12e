//! `solver-client scramble --size 3x3|4x4 --distance D [--seed S]`: a board at exactly that
//! optimal distance from the goal, and how it was drawn.

use std::hash::BuildHasher as _;
use std::io::{self, Write as _};
use std::process::ExitCode;

use crate::link::Link;
use solver_core::{Board3, Board4};
use solver_proto::v2 as pb;
use solver_server::{DataDir, Kind};
use std::sync::Arc;

use super::boards::{AnyBoard, line, write_board};
use super::connection::{Client, Connection};
use super::json::{print_json, stats_json};
use crate::output::Output;

/// The board sizes served.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum Size {
    /// The 8-puzzle.
    #[value(name = "3x3", alias = "eight")]
    Eight,
    /// The 15-puzzle.
    #[value(name = "4x4", alias = "fifteen")]
    Fifteen,
}

impl Size {
    fn side(self) -> u32 {
        match self {
            Size::Eight => 3,
            Size::Fifteen => 4,
        }
    }
}

/// `scramble`'s arguments.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "The first line of the output is the board as `solve`, `hint` and \
                        `verify` read it."
)]
pub(crate) struct Args {
    /// The board size.
    #[arg(long, value_enum, value_name = "SIZE")]
    size: Size,
    /// The optimal distance from the standard goal (blank last) the board must have, exactly (at
    /// most 31 for 3x3, 80 for 4x4).
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
) -> anyhow::Result<ExitCode> {
    let seed = args.seed.unwrap_or_else(|| {
        std::collections::hash_map::RandomState::new().hash_one(std::time::SystemTime::now())
    });
    let kind = match args.size {
        Size::Eight => Kind::Eight,
        Size::Fifteen => Kind::Fifteen,
    };
    let connection = Connection::open(server, link, data, kind)?;
    let request = pb::ScrambleRequest {
        rows: args.size.side(),
        cols: args.size.side(),
        distance: args.distance,
        seed,
    };
    let call = |mut client: Client, link: Arc<Link>| async move {
        client.scramble(link.request(request)).await
    };
    connection.answer(args.json, call, |response| {
        let board = match args.size {
            Size::Eight => Board3::from_cells(&response.board).map(AnyBoard::Eight),
            Size::Fifteen => Board4::from_cells(&response.board).map(AnyBoard::Fifteen),
        }
        .map_err(|e| anyhow::anyhow!("the server sent a board that is not one: {e}"))?;
        if args.json {
            print_json(&serde_json::json!({
                "rows": args.size.side(),
                "cols": args.size.side(),
                "board": response.board,
                "distance": response.distance,
                "seed": response.seed,
                "sampling": sampling_name(response.sampling()),
                "stats": stats_json(response.stats.as_ref()),
            }))?;
        } else {
            text(args.size, board, &response)?;
        }
        Ok(())
    })
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
fn text(size: Size, board: AnyBoard, response: &pb::ScrambleResponse) -> io::Result<()> {
    let mut out = Output::stdout();
    let side = size.side();
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
            format!("uniformly, every {side}x{side} board at that distance equally likely")
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
