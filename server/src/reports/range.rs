//! The range a report covers: `from` and `to` read as dates or datetimes in the report's time
//! zone, widened to whole buckets, and the start of every bucket.

use chrono::{
    DateTime, Days, NaiveDate, NaiveDateTime, Offset, SecondsFormat, TimeDelta, TimeZone,
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
            local - local.rem_euclid(HOUR_MS) - offset
        }
    }
}

/// The start of the bucket after the one starting at `start`.
fn next(tz: &Tz, bucket: Bucket, start: i64) -> i64 {
    match bucket {
        Bucket::Hour => start + HOUR_MS,
        // The day of an instant 26 hours on: the next one whether this day has 23, 24 or 25
        // hours, and never a date a clock change skips whole (Samoa's 2011-12-30), which has no
        // start of its own.
        Bucket::Day => day_start(tz, local_date(tz, start + 26 * HOUR_MS)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn query<'a>(from: &'a str, to: &'a str, bucket: &'a str, tz: &'a str) -> RangeQuery<'a> {
        RangeQuery {
            from: Some(from),
            to: Some(to),
            bucket: Some(bucket),
            tz: Some(tz),
        }
    }

    #[test]
    fn days_start_at_local_midnight_and_the_end_date_is_included() {
        let range = Range::parse(&query("2026-03-01", "2026-03-03", "day", "Asia/Riyadh"), 0)
            .expect("range");
        assert_eq!(range.starts.len(), 3);
        assert_eq!(range.local_iso(range.start()), "2026-03-01T00:00:00+03:00");
        assert_eq!(range.local_iso(range.end), "2026-03-04T00:00:00+03:00");
    }

    #[test]
    fn without_from_the_range_is_the_seven_days_that_end_with_to() {
        // 2026-11-30T10:00:00Z.
        let now = 1_796_032_800_000;
        let mut alone = query("", "", "day", "Asia/Riyadh");
        let range = Range::parse(&alone, now).expect("range");
        assert_eq!(range.local_iso(range.start()), "2026-11-24T00:00:00+03:00");
        assert_eq!(range.local_iso(range.end), "2026-12-01T00:00:00+03:00");
        alone.to = Some("2026-03-08");
        let range = Range::parse(&alone, now).expect("range");
        assert_eq!(range.local_iso(range.start()), "2026-03-02T00:00:00+03:00");
        assert_eq!(range.local_iso(range.end), "2026-03-09T00:00:00+03:00");
        alone.to = Some("2026-03-08T12:00");
        let range = Range::parse(&alone, now).expect("range");
        assert_eq!(range.local_iso(range.start()), "2026-03-02T00:00:00+03:00");
        alone.to = None;
        alone.from = Some("2026-11-29");
        let range = Range::parse(&alone, now).expect("range");
        assert_eq!(range.starts.len(), 2);
    }

    #[test]
    fn a_local_time_a_clock_change_skips_reads_with_the_offset_before_it() {
        let mut q = query(
            "2026-03-08T02:30",
            "2026-03-08T05:00",
            "hour",
            "America/New_York",
        );
        let range = Range::parse(&q, 0).expect("range");
        // 02:30 does not exist that night: 02:30 EST is 03:30 EDT, in the 03:00 bucket.
        assert_eq!(range.local_iso(range.start()), "2026-03-08T03:00:00-04:00");
        assert_eq!(range.starts.len(), 2);
        q.from = Some("2026-11-01T01:30");
        q.to = Some("2026-11-01T03:00");
        // 01:30 happens twice: the first, in daylight time.
        let range = Range::parse(&q, 0).expect("range");
        assert_eq!(range.local_iso(range.start()), "2026-11-01T01:00:00-04:00");
    }

    #[test]
    fn a_day_across_a_clock_change_is_23_hours_long() {
        let range = Range::parse(
            &query("2026-03-29", "2026-03-29", "day", "Europe/Berlin"),
            0,
        )
        .expect("range");
        assert_eq!(range.end - range.start(), 23 * HOUR_MS);
    }

    #[test]
    fn a_date_a_clock_change_skips_whole_is_no_bucket() {
        let range = Range::parse(&query("2011-12-29", "2011-12-31", "day", "Pacific/Apia"), 0)
            .expect("range");
        assert_eq!(range.starts.len(), 2);
        assert_eq!(range.local_iso(range.start()), "2011-12-29T00:00:00-10:00");
        assert_eq!(
            range.local_iso(range.starts[1]),
            "2011-12-31T00:00:00+14:00"
        );
        assert_eq!(range.local_iso(range.end), "2012-01-01T00:00:00+14:00");
    }

    #[test]
    fn hours_follow_a_half_hour_offset() {
        let range = Range::parse(
            &query(
                "2026-03-01T10:10:00Z",
                "2026-03-01T12:00:00Z",
                "hour",
                "Asia/Kolkata",
            ),
            0,
        )
        .expect("range");
        // 10:10 UTC is 15:40 there; 12:00 UTC is 17:30, inside the third hour.
        assert_eq!(range.local_iso(range.start()), "2026-03-01T15:00:00+05:30");
        assert_eq!(range.starts.len(), 3);
        assert_eq!(range.bucket_of(range.start() + HOUR_MS + 1), Some(1));
    }

    #[test]
    fn too_long_ranges_and_bad_values_name_their_parameter() {
        let long = Range::parse(&query("2026-01-01", "2027-01-05", "day", "UTC"), 0);
        assert!(long.expect_err("too long").0.contains("366 days"));
        let hours = Range::parse(&query("2026-01-01", "2026-02-05", "hour", "UTC"), 0);
        assert!(hours.is_err());
        for (q, name) in [
            (query("yesterday", "2026-01-02", "day", "UTC"), "from"),
            (query("2026-01-01", "2026-13-02", "day", "UTC"), "to"),
            (query("2026-01-01", "2026-01-02", "week", "UTC"), "bucket"),
            (
                query("2026-01-01", "2026-01-02", "day", "Mars/Olympus"),
                "tz",
            ),
            (query("2026-01-05", "2026-01-02", "day", "UTC"), "from"),
        ] {
            let err = Range::parse(&q, 0).expect_err("invalid");
            assert!(err.0.starts_with(name), "{}", err.0);
        }
    }
}
