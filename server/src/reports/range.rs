//! The range a report covers: `from` and `to` read as dates or datetimes in the report's time
//! zone, widened to whole buckets, and the start of every bucket.

use chrono::{
    DateTime, Days, NaiveDate, NaiveDateTime, Offset, SecondsFormat, TimeDelta, TimeZone, Timelike,
};
use chrono_tz::Tz;

use super::InvalidReport;

const HOUR_MS: i64 = 60 * 60 * 1000;
/// Most buckets in one report: a year of days, or 31 days of hours (and the hour a clock change
/// repeats, so a month across one fits).
const MAX_DAYS: usize = 366;
const MAX_HOURS: usize = 31 * 24 + 1;

/// How long each bucket is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bucket {
    Hour,
    Day,
}

impl Bucket {
    pub fn name(self) -> &'static str {
        match self {
            Bucket::Hour => "hour",
            Bucket::Day => "day",
        }
    }
}

/// A report's range, already widened to whole buckets.
#[derive(Debug)]
pub struct Range {
    pub tz: Tz,
    pub bucket: Bucket,
    /// Each bucket's start (Unix ms), ascending; the first is the range's start.
    pub starts: Vec<i64>,
    /// The end of the last bucket (Unix ms, exclusive).
    pub end: i64,
}

/// The raw query parameters.
pub struct RangeQuery<'a> {
    pub from: Option<&'a str>,
    pub to: Option<&'a str>,
    pub bucket: Option<&'a str>,
    pub tz: Option<&'a str>,
}

impl Range {
    /// Reads the parameters; `now` (Unix ms) places the default range: the last 7 days, today
    /// included (without `from`, the 7 days that end with `to`'s day).
    pub fn parse(query: &RangeQuery, now: i64) -> Result<Range, InvalidReport> {
        let tz = match query.tz.filter(|t| !t.is_empty()) {
            None => Tz::UTC,
            Some(name) => name.parse().map_err(|_| {
                InvalidReport("tz must be an IANA time zone name, such as Asia/Riyadh".into())
            })?,
        };
        let bucket = match query.bucket.filter(|b| !b.is_empty()) {
            None | Some("day") => Bucket::Day,
            Some("hour") => Bucket::Hour,
            Some(_) => return Err(InvalidReport("bucket must be hour or day".into())),
        };
        let to = match query.to.filter(|t| !t.is_empty()) {
            Some(raw) => instant(raw, &tz, true).ok_or_else(|| not_a_time("to"))?,
            None => day_start(&tz, local_date(&tz, now) + Days::new(1)),
        };
        // Without `from`, the 7 days that end with `to`'s day (today's by default).
        let from = match query.from.filter(|f| !f.is_empty()) {
            Some(raw) => instant(raw, &tz, false).ok_or_else(|| not_a_time("from"))?,
            None => day_start(&tz, local_date(&tz, to - 1) - Days::new(6)),
        };
        if from >= to {
            return Err(InvalidReport("from must be before to".into()));
        }
        let (max, unit) = match bucket {
            Bucket::Day => (MAX_DAYS, "366 days"),
            Bucket::Hour => (MAX_HOURS, "31 days of hours"),
        };
        let mut starts = Vec::new();
        let mut start = floor(&tz, bucket, from);
        while start < to {
            if starts.len() == max {
                return Err(InvalidReport(format!(
                    "from and to span more than {unit}; choose a shorter range"
                )));
            }
            starts.push(start);
            start = next(&tz, bucket, start);
        }
        Ok(Range {
            tz,
            bucket,
            starts,
            end: start,
        })
    }

    pub fn start(&self) -> i64 {
        self.starts[0]
    }

    /// The index of the bucket holding `at`, if it is in the range.
    pub fn bucket_of(&self, at: i64) -> Option<usize> {
        if at < self.start() || at >= self.end {
            return None;
        }
        Some(self.starts.partition_point(|s| *s <= at) - 1)
    }

    /// An instant as RFC 3339 in the report's time zone (`2026-03-01T00:00:00+03:00`).
    pub fn local_iso(&self, ms: i64) -> String {
        self.local(ms).to_rfc3339_opts(SecondsFormat::Secs, false)
    }

    /// The local date of an instant (`2026-03-01`).
    pub fn local_day(&self, ms: i64) -> String {
        self.local(ms).format("%Y-%m-%d").to_string()
    }

    fn local(&self, ms: i64) -> DateTime<Tz> {
        DateTime::from_timestamp_millis(ms)
            .unwrap_or_default()
            .with_timezone(&self.tz)
    }
}

fn not_a_time(name: &str) -> InvalidReport {
    InvalidReport(format!(
        "{name} must be an ISO 8601 date (2026-03-01) or datetime (2026-03-01T08:00:00+03:00)"
    ))
}

/// A date (its start; for the range's end, the next day's start, so the day is included), an
/// RFC 3339 datetime, or a datetime without offset in the report's time zone.
fn instant(raw: &str, tz: &Tz, end: bool) -> Option<i64> {
    if let Ok(date) = NaiveDate::parse_from_str(raw, "%Y-%m-%d") {
        let date = if end { date.succ_opt()? } else { date };
        return Some(day_start(tz, date));
    }
    if let Ok(at) = DateTime::parse_from_rfc3339(raw) {
        return Some(at.timestamp_millis());
    }
    ["%Y-%m-%dT%H:%M:%S%.f", "%Y-%m-%dT%H:%M"]
        .iter()
        .find_map(|format| NaiveDateTime::parse_from_str(raw, format).ok())
        .and_then(|local| local_instant(tz, local))
}

/// A local time in `tz` (the earlier of two when a clock change repeats it); one a clock change
/// skips reads with the offset before the change, as clocks that were not moved would show it
/// (02:30 on a night that jumps from 02:00 to 03:00 is 03:30 after it).
fn local_instant(tz: &Tz, local: NaiveDateTime) -> Option<i64> {
    if let Some(at) = tz.from_local_datetime(&local).earliest() {
        return Some(at.timestamp_millis());
    }
    let before = local.checked_sub_signed(TimeDelta::hours(3))?;
    let offset = tz.offset_from_local_datetime(&before).earliest()?.fix();
    let at = local.and_local_timezone(offset).single()?;
    Some(at.timestamp_millis())
}

fn local_date(tz: &Tz, ms: i64) -> NaiveDate {
    DateTime::from_timestamp_millis(ms)
        .unwrap_or_default()
        .with_timezone(tz)
        .date_naive()
}

/// The first instant of a local day: midnight, or the first hour that exists when a clock
/// change skips midnight.
fn day_start(tz: &Tz, date: NaiveDate) -> i64 {
    (0..24)
        .find_map(|hour| {
            tz.from_local_datetime(&date.and_hms_opt(hour, 0, 0)?)
                .earliest()
        })
        .map_or_else(
            || {
                date.and_time(chrono::NaiveTime::MIN)
                    .and_utc()
                    .timestamp_millis()
            },
            |at| at.timestamp_millis(),
        )
}

/// The start of the bucket holding `ms`.
fn floor(tz: &Tz, bucket: Bucket, ms: i64) -> i64 {
    match bucket {
        Bucket::Day => day_start(tz, local_date(tz, ms)),
        Bucket::Hour => {
            let utc = DateTime::from_timestamp_millis(ms).unwrap_or_default();
            let offset = i64::from(
                tz.offset_from_utc_datetime(&utc.naive_utc())
                    .fix()
                    .local_minus_utc(),
            ) * 1000;
            let local = ms + offset;
            let guess = local - local.rem_euclid(HOUR_MS) - offset;
            // Right after a half-hour clock change (Lord Howe), the guess reads :30 on the clock:
            // the hour began earlier.
            (0..=QUARTERS_IN_TWO_HOURS)
                .map(|back| guess - back * QUARTER_MS)
                .find(|at| on_the_hour(tz, *at))
                .unwrap_or(guess)
        }
    }
}

/// The start of the bucket after the one starting at `start`: the next instant the local clock
/// reads a whole hour, an hour on, or half an hour or an hour and a half on across a half-hour
/// clock change. Offsets are whole quarters of an hour.
fn next(tz: &Tz, bucket: Bucket, start: i64) -> i64 {
    match bucket {
        Bucket::Hour => (1..=QUARTERS_IN_TWO_HOURS)
            .map(|on| start + on * QUARTER_MS)
            .find(|at| on_the_hour(tz, *at))
            .unwrap_or(start + HOUR_MS),
        // The day of an instant 26 hours on: the next one whether this day has 23, 24 or 25
        // hours, and never a date a clock change skips whole (Samoa's 2011-12-30), which has no
        // start of its own.
        Bucket::Day => day_start(tz, local_date(tz, start + 26 * HOUR_MS)),
    }
}

const QUARTER_MS: i64 = HOUR_MS / 4;
const QUARTERS_IN_TWO_HOURS: i64 = 8;

/// Whether the local clock reads a whole hour at `ms`.
fn on_the_hour(tz: &Tz, ms: i64) -> bool {
    let local = DateTime::from_timestamp_millis(ms)
        .unwrap_or_default()
        .with_timezone(tz);
    local.minute() == 0 && local.second() == 0
}

#[cfg(test)]
mod tests;
