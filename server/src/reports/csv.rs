//! The overview as CSV: one row per bucket under a header, a blank line, then the per-member
//! table under its own header. Text cells that a spreadsheet would run as a formula are prefixed
//! with `'`.

use super::overview::{Numbers, Report};
use super::range::Range;

const BUCKET_HEADER: [&str; 9] = [
    "start",
    "conversations_opened",
    "conversations_resolved",
    "messages_in",
    "messages_out",
    "first_response_median_secs",
    "first_response_p90_secs",
    "resolution_median_secs",
    "resolution_p90_secs",
];
const AGENT_HEADER: [&str; 4] = [
    "user_id",
    "name",
    "conversations_handled",
    "first_response_median_secs",
];

/// The download's file name: `parley-report-2026-03-01-2026-03-07.csv` (the last day included).
pub fn file_name(range: &Range) -> String {
    format!(
        "parley-report-{}-{}.csv",
        range.local_day(range.start()),
        range.local_day(range.end - 1)
    )
}

/// The report as CSV text.
pub fn report_csv(report: &Report) -> Result<String, csv::Error> {
    let buckets = table(
        &BUCKET_HEADER,
        report.buckets.iter().map(|row| {
            let mut cells = vec![safe(&row.start)];
            cells.extend(number_cells(&row.numbers));
            cells
        }),
    )?;
    let agents = table(
        &AGENT_HEADER,
        report.agents.iter().map(|agent| {
            vec![
                safe(&agent.user_id),
                safe(&agent.name),
                agent.conversations_handled.to_string(),
                optional(agent.first_response_median_secs),
            ]
        }),
    )?;
    Ok(format!("{buckets}\n{agents}"))
}

fn table(header: &[&str], rows: impl Iterator<Item = Vec<String>>) -> Result<String, csv::Error> {
    let mut writer = csv::Writer::from_writer(Vec::new());
    writer.write_record(header)?;
    for row in rows {
        writer.write_record(&row)?;
    }
    let bytes = writer.into_inner().map_err(|e| e.into_error())?;
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}

fn number_cells(n: &Numbers) -> Vec<String> {
    vec![
        n.conversations_opened.to_string(),
        n.conversations_resolved.to_string(),
        n.messages_in.to_string(),
        n.messages_out.to_string(),
        optional(n.first_response_median_secs),
        optional(n.first_response_p90_secs),
        optional(n.resolution_median_secs),
        optional(n.resolution_p90_secs),
    ]
}

fn optional(value: Option<i64>) -> String {
    value.map(|v| v.to_string()).unwrap_or_default()
}

/// A text cell a spreadsheet reads as text: one starting with `=`, `+`, `-`, `@`, a tab or a
/// carriage return gets a leading `'`.
fn safe(text: &str) -> String {
    if text.starts_with(['=', '+', '-', '@', '\t', '\r']) {
        format!("'{text}")
    } else {
        text.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_a_spreadsheet_would_run_are_prefixed() {
        assert_eq!(safe("=cmd|' /C calc'!A0"), "'=cmd|' /C calc'!A0");
        assert_eq!(safe("@SUM(A1)"), "'@SUM(A1)");
        assert_eq!(safe("Sara"), "Sara");
    }
}
