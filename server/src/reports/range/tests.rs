//! How a report's range reads its parameters and places its buckets.

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
    let range =
        Range::parse(&query("2026-03-01", "2026-03-03", "day", "Asia/Riyadh"), 0).expect("range");
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
    let range =
        Range::parse(&query("2011-12-29", "2011-12-31", "day", "Pacific/Apia"), 0).expect("range");
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
fn hours_start_on_the_hour_across_a_half_hour_clock_change() {
    // Lord Howe Island moves its clocks by half an hour: 02:00 becomes 02:30 on
    // 2026-10-04, and 02:00 becomes 01:30 on 2026-04-05.
    for (day, labels) in [
        (
            "2026-10-04",
            [
                "2026-10-04T00:00:00+10:30",
                "2026-10-04T01:00:00+10:30",
                "2026-10-04T03:00:00+11:00",
                "2026-10-04T04:00:00+11:00",
            ],
        ),
        (
            "2026-04-05",
            [
                "2026-04-05T00:00:00+11:00",
                "2026-04-05T01:00:00+11:00",
                "2026-04-05T02:00:00+10:30",
                "2026-04-05T03:00:00+10:30",
            ],
        ),
    ] {
        let range =
            Range::parse(&query(day, day, "hour", "Australia/Lord_Howe"), 0).expect("range");
        let starts: Vec<String> = range.starts.iter().map(|s| range.local_iso(*s)).collect();
        assert_eq!(starts[..4], labels, "{day}");
        assert!(starts.iter().all(|s| s[14..19] == *"00:00"), "{starts:?}");
        // Every instant of the day falls in a bucket, and the range is the whole day.
        assert_eq!(range.bucket_of(range.start() + 90 * 60 * 1000), Some(1));
        assert_eq!(starts.last().map(|s| &s[11..13]), Some("23"));
    }
    // A range that begins in the hour after the change starts with that hour.
    let range = Range::parse(
        &query(
            "2026-10-04T02:45",
            "2026-10-04T04:00",
            "hour",
            "Australia/Lord_Howe",
        ),
        0,
    )
    .expect("range");
    assert_eq!(range.local_iso(range.start()), "2026-10-04T01:00:00+10:30");
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
