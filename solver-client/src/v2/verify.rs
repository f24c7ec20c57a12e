//! `solver-client verify BOARD MOVES [--target BOARD]`: are the moves legal, do they reach the
//! target, and how far from optimal are they.

use std::io::{self, Write as _};
use std::process::ExitCode;

use crate::link::Link;
use anyhow::bail;
use solver_proto::v2 as pb;
use solver_store::DataDir;
use std::sync::Arc;

use super::boards::Boards;
use super::common::Common;
use super::connection::{Client, Connection};
use super::json::{print_json, stats_json};
use crate::output::Output;

/// `verify`'s arguments.
#[derive(Debug, clap::Args)]
#[command(
    override_usage = "solver-client verify [OPTIONS] <BOARD>... <MOVES>",
    after_help = "The exit code is 0 whenever the server gave its verdict, whatever it is; 1 \
                  when it could not (a bad argument, no server)."
)]
pub(crate) struct Args {
    #[command(flatten)]
    common: Common,
    /// The start board (9 numbers for 3×3 or 16 for 4×4, or rows × cols with `--size`, row by row, 0 or x for the blank; as
    /// separate arguments, one quoted string, or packed for 3×3), then the moves: one letter per
    /// move of the blank (`u`, `d`, `l`, `r`), "" for none.
    // One word is taken too, so that moves forgotten after a packed board are named as such
    // (below) rather than as a count of values.
    #[arg(value_names = ["BOARD", "MOVES"], required = true, num_args = 1..)]
    words: Vec<String>,
}

/// Runs `verify`.
pub(super) fn run(
    server: Option<&str>,
    link: &Arc<Link>,
    data: DataDir,
    args: Args,
    progress: bool,
) -> anyhow::Result<ExitCode> {
    let (moves, board) = moves_and_board(&args.words)?;
    let boards = Boards::parse(board, args.common.target.as_deref(), args.common.size)?;
    let connection = Connection::open(server, link, data, boards.start.kind(), progress)?;
    let request = pb::VerifyRequest {
        rows: boards.rows(),
        cols: boards.cols(),
        start: boards.start.cells(),
        target: boards.target_cells(),
        // As given: the server names `moves` when one is not a move letter.
        moves: moves.trim().to_owned(),
        limits: Some(pb::Limits {
            node_budget: args.common.node_budget,
        }),
    };
    let call = |mut client: Client, link: Arc<Link>| {
        let request = link.request(request.clone());
        async move { client.verify(request).await }
    };
    connection.answer("checking the moves", args.common.json, call, |response| {
        if args.common.json {
            print_json(&serde_json::json!({
                "rows": boards.rows(),
                "cols": boards.cols(),
                "start": boards.start.cells(),
                "target": boards.target_or_goal().cells(),
                "moves": request.moves,
                "legal": response.legal,
                "first_illegal_index": response.first_illegal_index,
                "reaches_target": response.reaches_target,
                "length": response.length,
                "optimal_length": response.optimal_length,
                "excess": response.excess,
                "stats": stats_json(response.stats.as_ref()),
            }))?;
        } else {
            text(&request.moves, &response)?;
        }
        Ok(())
    })
}

/// How the moves are given, for the messages below.
const HOW: &str = "give them after the board (`verify BOARD MOVES`), one letter per move of the \
                   blank (u, d, l, r), or \"\" for none";

/// The last word (the moves) and the board before it; a last word with a digit or a lone `x`
/// is the board's, and the moves were forgotten: said so, rather than that the board is short.
fn moves_and_board(words: &[String]) -> anyhow::Result<(&String, &[String])> {
    let Some((moves, board)) = words.split_last() else {
        bail!("BOARD and MOVES missing: {HOW}");
    };
    let looks_like_board =
        moves.chars().any(|c| c.is_ascii_digit()) || moves.trim().eq_ignore_ascii_case("x");
    if looks_like_board {
        bail!("MOVES missing: the last argument, {moves:?}, is part of the board; {HOW}");
    }
    if board.is_empty() {
        bail!("BOARD missing: only the moves, {moves:?}, were given; the board comes first");
    }
    Ok((moves, board))
}

/// The verdict for a person, one `what: value` line each.
fn text(moves: &str, response: &pb::VerifyResponse) -> io::Result<()> {
    let mut out = Output::stdout();
    let yes = |b: bool| if b { "yes" } else { "no" };
    writeln!(out, "legal: {}", yes(response.legal))?;
    if let Some(index) = response.first_illegal_index {
        let letter = moves.chars().nth(index as usize).unwrap_or('?');
        writeln!(
            out,
            "first illegal index: {index} (move {}, {letter:?}, would move the blank off the \
             board)",
            index + 1
        )?;
    }
    writeln!(out, "reaches target: {}", yes(response.reaches_target))?;
    writeln!(out, "length: {}", response.length)?;
    writeln!(out, "optimal: {}", response.optimal_length)?;
    if response.reaches_target {
        writeln!(out, "excess: {}", response.excess)?;
    } else {
        writeln!(out, "excess: - (the moves do not reach the target)")?;
    }
    out.flush()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(text: &str) -> Vec<String> {
        text.split(' ').map(str::to_owned).collect()
    }

    #[test]
    fn forgotten_moves_are_named() {
        let forgot = words("2 3 4 1 5 x 7 6 8");
        let err = moves_and_board(&forgot).unwrap_err().to_string();
        assert_eq!(
            err,
            format!("MOVES missing: the last argument, \"8\", is part of the board; {HOW}")
        );
        let packed = words("23415x768");
        let err = moves_and_board(&packed).unwrap_err().to_string();
        assert!(err.starts_with("MOVES missing: "), "{err}");
        let quoted = words("eight 1 2 3 4 5 6 7 8 x");
        let err = moves_and_board(&quoted).unwrap_err().to_string();
        assert!(err.starts_with("MOVES missing: "), "{err}");
        let err = moves_and_board(&words("dlur")).unwrap_err().to_string();
        assert!(err.starts_with("BOARD missing: "), "{err}");
        let given = words("2 3 4 1 5 x 7 6 8 dlur");
        let (moves, board) = moves_and_board(&given).unwrap();
        assert_eq!(moves, "dlur");
        assert_eq!(board.len(), 9);
        let none = vec!["12345678x".to_owned(), String::new()];
        assert_eq!(moves_and_board(&none).unwrap().0, "");
    }
}
