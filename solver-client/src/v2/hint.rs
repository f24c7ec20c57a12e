//! `solver-client hint BOARD [--target BOARD]`: the optimal distance and every legal move with the
//! distance after it, best first.

use std::io::{self, Write as _};
use std::process::ExitCode;

use crate::link::Link;
use solver_core::Move;
use solver_proto::v2 as pb;
use solver_store::DataDir;
use std::sync::Arc;

use super::boards::Boards;
use super::common::Common;
use super::connection::{Client, Connection};
use super::json::{print_json, stats_json};
use crate::output::Output;

/// `hint`'s arguments.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "A move on an optimal path leaves the distance one smaller; any other \
                        move makes it one larger."
)]
pub(crate) struct Args {
    #[command(flatten)]
    common: Common,
    /// The position: 9 numbers (3×3) or 16 (4×4) row by row, 0 or x for the blank (with
    /// `--size RxC`: rows × cols numbers); as separate arguments, one quoted string, or packed for
    /// 3×3 (`12345678x`).
    #[arg(value_name = "BOARD", required = true)]
    board: Vec<String>,
}

/// Runs `hint`.
pub(super) fn run(
    server: Option<&str>,
    link: &Arc<Link>,
    data: DataDir,
    args: Args,
    progress: bool,
) -> anyhow::Result<ExitCode> {
    let boards = Boards::parse(&args.board, args.common.target.as_deref(), args.common.size)?;
    let connection = Connection::open(server, link, data, boards.start.kind(), progress)?;
    let request = pb::HintRequest {
        rows: boards.rows(),
        cols: boards.cols(),
        start: boards.start.cells(),
        target: boards.target_cells(),
        limits: Some(pb::Limits {
            node_budget: args.common.node_budget,
        }),
    };
    let call = |mut client: Client, link: Arc<Link>| {
        let request = link.request(request.clone());
        async move { client.hint(request).await }
    };
    connection.answer("asking for a hint", args.common.json, call, |response| {
        if args.common.json {
            print_json(&json(&boards, &response))?;
        } else {
            text(&response)?;
        }
        Ok(())
    })
}

/// The answer for a person: the distance, then one line per move.
fn text(response: &pb::HintResponse) -> io::Result<()> {
    let mut out = Output::stdout();
    if response.distance == 0 {
        writeln!(out, "distance: 0 (the position is the target)")?;
    } else {
        writeln!(
            out,
            "distance: {} move{} to the target",
            response.distance,
            if response.distance == 1 { "" } else { "s" }
        )?;
    }
    writeln!(out, "moves, best first (distance after each):")?;
    for mv in &response.moves {
        let what = mv
            .direction
            .chars()
            .next()
            .and_then(Move::from_letter)
            .map_or("?", crate::family::sliding::draw::direction);
        let best = if mv.distance_after < response.distance {
            "; on an optimal path"
        } else {
            ""
        };
        writeln!(
            out,
            "  {} -> {:>2}  ({what}{best})",
            mv.direction, mv.distance_after
        )?;
    }
    out.flush()
}

/// The answer as one JSON object.
fn json(boards: &Boards, response: &pb::HintResponse) -> serde_json::Value {
    let moves: Vec<serde_json::Value> = response
        .moves
        .iter()
        .map(|mv| {
            serde_json::json!({
                "direction": mv.direction,
                "distance_after": mv.distance_after,
                "optimal": mv.distance_after < response.distance,
            })
        })
        .collect();
    serde_json::json!({
        "rows": boards.rows(),
        "cols": boards.cols(),
        "start": boards.start.cells(),
        "target": boards.target_or_goal().cells(),
        "distance": response.distance,
        "moves": moves,
        "stats": stats_json(response.stats.as_ref()),
    })
}
