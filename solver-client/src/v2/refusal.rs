//! A call the server refused, for a person or as JSON: the code, the fields at fault and why
//! (`google.rpc.BadRequest`), and when to retry (`google.rpc.RetryInfo`).

use std::process::ExitCode;

use anyhow::bail;
use solver_proto::tonic_types::{BadRequest, StatusExt as _};
use tonic::{Code, Status};

use super::json::print_json;
use crate::exit;

/// The canonical name of a status code (`INVALID_ARGUMENT`).
fn code_name(code: Code) -> String {
    let mut name = String::new();
    for (i, c) in format!("{code:?}").chars().enumerate() {
        if c.is_ascii_uppercase() && i > 0 {
            name.push('_');
        }
        name.push(c.to_ascii_uppercase());
    }
    name
}

/// A refused call for a person: the code, and the field at fault and why (from the `BadRequest`
/// detail) or the message, and when to retry (from `RetryInfo`).
fn describe(status: &Status) -> String {
    let details = status.get_error_details();
    if let Some(unsolvable) = details.bad_request().and_then(unsolvable) {
        return unsolvable;
    }
    let mut text = format!("the server refused the call ({})", code_name(status.code()));
    match details.bad_request() {
        Some(bad) if !bad.field_violations.is_empty() => {
            for violation in &bad.field_violations {
                text.push_str(&format!(
                    "\n  field `{}`: {}",
                    violation.field, violation.description
                ));
            }
        }
        _ => text.push_str(&format!(": {}", status.message())),
    }
    if let Some(delay) = details.retry_info().and_then(|retry| retry.retry_delay) {
        text.push_str(&format!("; retry after {delay:?}"));
    }
    text
}

/// A target the board can never reach (`Hint`, `Verify`: INVALID_ARGUMENT naming `target`, as the
/// proto documents), said as `solve` says it: that is the answer a person wants, and the
/// refusal's code comes after it. Servers before the message began with "unsolvable" said
/// "can never reach" all the same.
fn unsolvable(bad: &BadRequest) -> Option<String> {
    let [violation] = bad.field_violations.as_slice() else {
        return None;
    };
    let why = violation.description.as_str();
    if violation.field != "target" || !why.contains("never reach") {
        return None;
    }
    let why = why.strip_prefix("unsolvable: ").unwrap_or(why);
    Some(format!(
        "unsolvable: {why}\n  (the server refused the call: INVALID_ARGUMENT, field `target`)"
    ))
}

/// A refused call as one JSON object: `code` (the number), `status` (its name), `message`, and
/// `field_violations` (`field`, `description`) when the server named fields.
fn error_json(status: &Status) -> serde_json::Value {
    let details = status.get_error_details();
    let mut value = serde_json::json!({
        "error": {
            "code": i32::from(status.code()),
            "status": code_name(status.code()),
            "message": status.message(),
        }
    });
    if let Some(bad) = details.bad_request() {
        value["error"]["field_violations"] = bad
            .field_violations
            .iter()
            .map(|v| serde_json::json!({ "field": v.field, "description": v.description }))
            .collect();
    }
    if let Some(delay) = details.retry_info().and_then(|retry| retry.retry_delay) {
        value["error"]["retry_after_seconds"] = delay.as_secs_f64().into();
    }
    value
}

/// Reports a refused call: one JSON object on stdout with `--json`, an error for `main` to print
/// otherwise; the exit code is 3 when the service could not be reached or refused us
/// (UNAUTHENTICATED, PERMISSION_DENIED, UNAVAILABLE), else 1.
pub(super) fn refused(url: &str, status: &Status, json: bool) -> anyhow::Result<ExitCode> {
    // A status the connection made up (a transport error as its source): the two ends do not
    // understand each other, most often TLS on one side only.
    if std::error::Error::source(status).is_some() {
        let why = crate::failure::Unanswered::Refused {
            url: url.to_owned(),
            status: status.clone(),
        };
        if json {
            let mut value = error_json(status);
            value["error"]["message"] = why.to_string().into();
            print_json(&value)?;
            return Ok(ExitCode::from(exit::UNREACHABLE));
        }
        return Err(exit::Unreachable(why.to_string()).into());
    }
    let unreachable = exit::refused_us(status.code());
    if json {
        print_json(&error_json(status))?;
        return Ok(ExitCode::from(if unreachable {
            exit::UNREACHABLE
        } else {
            exit::CASE_ERROR
        }));
    }
    if unreachable {
        return Err(exit::Unreachable(describe(status)).into());
    }
    bail!("{}", describe(status))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refusals_name_the_field() {
        use solver_proto::tonic_types::{ErrorDetails, FieldViolation};

        let status = Status::with_error_details(
            Code::InvalidArgument,
            "distance: 99: too far",
            ErrorDetails::with_bad_request(vec![FieldViolation::new("distance", "99: too far")]),
        );
        assert_eq!(
            describe(&status),
            "the server refused the call (INVALID_ARGUMENT)\n  field `distance`: 99: too far"
        );
        let json = error_json(&status);
        assert_eq!(json["error"]["code"], 3);
        assert_eq!(json["error"]["field_violations"][0]["field"], "distance");
        // An unsolvable board is said first, as `solve` says it.
        let status = Status::with_error_details(
            Code::InvalidArgument,
            "target: unsolvable: the start can never reach this target: odd parity",
            ErrorDetails::with_bad_request(vec![FieldViolation::new(
                "target",
                "unsolvable: the start can never reach this target: odd parity",
            )]),
        );
        assert_eq!(
            describe(&status),
            "unsolvable: the start can never reach this target: odd parity\n  (the server \
             refused the call: INVALID_ARGUMENT, field `target`)"
        );
        assert_eq!(
            error_json(&status)["error"]["field_violations"][0]["field"],
            "target"
        );
        assert_eq!(
            describe(&Status::resource_exhausted("budget")),
            "the server refused the call (RESOURCE_EXHAUSTED): budget"
        );
    }
}
