//! Shell completion as a person gets it: a generated script sourced in a real `bash`, and the
//! function it registers called the way bash calls it on TAB. Reading the script proves
//! nothing; clap_complete once generated scripts that looked right and offered nothing past
//! the first word (clap-rs/clap#6421).

use std::path::PathBuf;
use std::process::Command;
use std::sync::atomic::{AtomicU64, Ordering};

/// Sources the script, looks up the function `complete -p PROGRAM` names, sets what bash sets
/// for programmable completion and prints `COMPREPLY`, one word a line.
const DRIVER: &str = r#"
script=$1 program=$2
shift 2
source "$script" || exit 90
spec=$(complete -p -- "$program") || { echo "no completion registered for $program" >&2; exit 91; }
read -ra parts <<< "$spec"
function=
for ((i = 0; i < ${#parts[@]} - 1; i++)); do
    [[ ${parts[i]} == -F ]] && function=${parts[i + 1]}
done
[[ -n $function ]] || { echo "no function in: $spec" >&2; exit 92; }
COMP_WORDS=("$@")
COMP_CWORD=$(($# - 1))
COMP_LINE="$*"
COMP_POINT=${#COMP_LINE}
COMP_TYPE=9
COMP_KEY=9
previous=
((COMP_CWORD > 0)) && previous=${COMP_WORDS[COMP_CWORD - 1]}
COMPREPLY=()
"$function" "${COMP_WORDS[0]}" "${COMP_WORDS[COMP_CWORD]}" "$previous"
((${#COMPREPLY[@]} == 0)) || printf '%s\n' "${COMPREPLY[@]}"
"#;

/// What bash offers on TAB after `words` (the program's name first, the word being completed
/// last, empty for a TAB after a space), with `script` sourced: the words of `COMPREPLY`.
///
/// # Panics
/// If bash cannot run, the script does not source, or it registers no function for `program`.
pub fn bash_offers(script: &str, program: &str, words: &[&str]) -> Vec<String> {
    static FILES: AtomicU64 = AtomicU64::new(0);
    let path: PathBuf = std::env::temp_dir().join(format!(
        "completion-{}-{}.bash",
        std::process::id(),
        FILES.fetch_add(1, Ordering::Relaxed)
    ));
    std::fs::write(&path, script).expect("writing the completion script");
    let output = Command::new("bash")
        .args(["--norc", "--noprofile", "-c", DRIVER, "bash"])
        .arg(&path)
        .arg(program)
        .args(words)
        .output();
    let _ = std::fs::remove_file(&path);
    let output = output.expect("running bash");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        output.status.success(),
        "bash completion of {words:?}: {}\n{stderr}",
        output.status
    );
    String::from_utf8(output.stdout)
        .expect("UTF-8 words")
        .lines()
        .map(str::to_owned)
        .collect()
}
