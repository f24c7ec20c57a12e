//! What one case may spend: its time and its search nodes (each family's own limits are its
//! flags, `FamilyFlags`).

use std::time::Duration;

use clap::Args;
use solver_store::flags::parse_duration;

/// The budgets of each case, whatever its request asks.
#[derive(Debug, Clone, Args)]
pub struct Cases {
    /// Longest one case may search (e.g. `500ms`, `30s`, `2m`). A case that runs out gets a
    /// RESOURCE_EXHAUSTED error in its reply; the stream goes on.
    #[arg(
        id = "case_timeout",
        long = "case-timeout",
        value_name = "CASE_TIMEOUT",
        env = "SOLVER_CASE_TIMEOUT",
        default_value = "60s",
        value_parser = parse_duration
    )]
    pub timeout: Duration,

    /// Search nodes a searched case may expand when its request sets no `node_budget` (a node
    /// is a position of its puzzle; 3×3 cases are looked up, not searched); 0 means no node
    /// limit (the time limit still applies).
    #[arg(long, env = "SOLVER_NODE_BUDGET", default_value_t = 0)]
    pub node_budget: u64,

    /// Most search nodes any searched case (or v2 call: a hint's or a scramble's searches
    /// together) may expand, whatever its request asks; 0 means no cap.
    #[arg(long, env = "SOLVER_MAX_NODE_BUDGET", default_value_t = 0)]
    pub max_node_budget: u64,
}

impl Cases {
    /// The node budget of a 15-puzzle case whose request asked for `requested` (0 = default).
    /// `None` means unlimited.
    #[must_use]
    pub fn node_budget_for(&self, requested: u64) -> Option<u64> {
        let wanted = if requested > 0 {
            requested
        } else {
            self.node_budget
        };
        match (wanted, self.max_node_budget) {
            (0, 0) => None,
            (0, cap) => Some(cap),
            (n, 0) => Some(n),
            (n, cap) => Some(n.min(cap)),
        }
    }
}
