//! Reports' ranges: buckets in the requested time zone, days and hours across its clock changes,
//! and the parameters refused.

use crate::both_backends;
use crate::helpers::*;
use crate::reports::{ALICE, BOB, customer_writes_at, overview};

both_backends!(
    buckets_follow_the_requested_time_zone,
    |backend| async move {
        let app = spawn_app(backend).await;
        let biz = app.business("report_tz").await;
        // 2026-01-10 20:00 UTC is 23:00 in Riyadh; 22:30 UTC is already 01:30 on the 11th.
        let evening = chrono::DateTime::parse_from_rfc3339("2026-01-10T20:00:00Z")
            .expect("time")
            .timestamp();
        customer_writes_at(&app, &biz, ALICE, "wamid.tz1", evening).await;
        customer_writes_at(&app, &biz, BOB, "wamid.tz2", evening + 9000).await;
        let token = &biz.session.access;

        let utc = overview(&app, token, "from=2026-01-10&to=2026-01-11").await;
        let days: Vec<i64> = utc["buckets"]
            .as_array()
            .expect("buckets")
            .iter()
            .map(|b| b["conversations_opened"].as_i64().expect("count"))
            .collect();
        assert_eq!(days, [2, 0]);

        let riyadh = overview(
            &app,
            token,
            "from=2026-01-10&to=2026-01-11&bucket=day&tz=Asia/Riyadh",
        )
        .await;
        assert_eq!(riyadh["tz"], "Asia/Riyadh");
        assert_eq!(riyadh["from"], "2026-01-10T00:00:00+03:00");
        assert_eq!(riyadh["to"], "2026-01-12T00:00:00+03:00");
        let buckets = riyadh["buckets"].as_array().expect("buckets");
        assert_eq!(buckets[0]["start"], "2026-01-10T00:00:00+03:00");
        assert_eq!(buckets[0]["messages_in"], 1);
        assert_eq!(buckets[1]["start"], "2026-01-11T00:00:00+03:00");
        assert_eq!(buckets[1]["messages_in"], 1);

        let hours = overview(
            &app,
            token,
            "from=2026-01-10T22:00&to=2026-01-11T02:00&bucket=hour&tz=Asia/Kolkata",
        )
        .await;
        // 20:00 UTC is 01:30 in Kolkata on the 11th, in the last of these hours; 22:30 UTC is
        // 04:00, after them.
        assert_eq!(hours["buckets"].as_array().expect("buckets").len(), 4);
        assert_eq!(hours["totals"]["messages_in"], 1);
        assert_eq!(hours["buckets"][3]["messages_in"], 1);
        let later = overview(
            &app,
            token,
            "from=2026-01-11T01:00&to=2026-01-11T04:30&bucket=hour&tz=Asia/Kolkata",
        )
        .await;
        let counts: Vec<i64> = later["buckets"]
            .as_array()
            .expect("buckets")
            .iter()
            .map(|b| b["messages_in"].as_i64().expect("count"))
            .collect();
        assert_eq!(counts, [1, 0, 0, 1]);
        assert_eq!(later["buckets"][0]["start"], "2026-01-11T01:00:00+05:30");

        // Samoa skipped 2011-12-30 whole: the days around it are two buckets.
        let samoa = overview(&app, token, "from=2011-12-29&to=2011-12-31&tz=Pacific/Apia").await;
        let starts: Vec<&str> = samoa["buckets"]
            .as_array()
            .expect("buckets")
            .iter()
            .map(|b| b["start"].as_str().expect("start"))
            .collect();
        assert_eq!(
            starts,
            ["2011-12-29T00:00:00-10:00", "2011-12-31T00:00:00+14:00"]
        );
    }
);

both_backends!(
    bad_report_parameters_are_refused_with_their_name,
    |backend| async move {
        let app = spawn_app(backend).await;
        let biz = app.business("report_bad").await;
        for (query, name) in [
            ("bucket=week", "bucket"),
            ("tz=Mars/Olympus", "tz"),
            ("from=yesterday", "from"),
            ("to=2026-02-30", "to"),
            ("from=2026-01-01&to=2027-06-01", "from and to"),
            ("from=2026-01-01&to=2026-03-01&bucket=hour", "from and to"),
            ("format=xml", "format"),
        ] {
            let (status, body) = app
                .get(
                    &format!("/api/reports/overview?{query}"),
                    &biz.session.access,
                )
                .await;
            assert_eq!(status, 422, "{query}: {body}");
            let detail = body["detail"].as_str().expect("detail");
            assert!(detail.starts_with(name), "{query}: {detail}");
            assert!(body["code"].is_string());
        }
    }
);

both_backends!(
    a_month_of_hours_across_a_clock_change_has_its_repeated_hour,
    |backend| async move {
        let app = spawn_app(backend).await;
        let biz = app.business("report_dst").await;
        // Berlin's clocks go back from 03:00 to 02:00 on 2026-10-25: 00:30 UTC is the first
        // 02:30 (summer time), 01:30 UTC the second.
        let first = chrono::DateTime::parse_from_rfc3339("2026-10-25T00:30:00Z")
            .expect("time")
            .timestamp();
        customer_writes_at(&app, &biz, ALICE, "wamid.dst1", first).await;
        customer_writes_at(&app, &biz, BOB, "wamid.dst2", first + 3600).await;

        let october = overview(
            &app,
            &biz.session.access,
            "from=2026-10-01&to=2026-10-31&bucket=hour&tz=Europe/Berlin",
        )
        .await;
        let buckets = october["buckets"].as_array().expect("buckets");
        assert_eq!(buckets.len(), 31 * 24 + 1);
        assert_eq!(october["to"], "2026-11-01T00:00:00+01:00");
        // The 25th's first two hours come before, after 24 days of hours.
        let at = 24 * 24 + 2;
        assert_eq!(buckets[at]["start"], "2026-10-25T02:00:00+02:00");
        assert_eq!(buckets[at]["messages_in"], 1);
        assert_eq!(buckets[at + 1]["start"], "2026-10-25T02:00:00+01:00");
        assert_eq!(buckets[at + 1]["messages_in"], 1);
        assert_eq!(buckets[at + 2]["start"], "2026-10-25T03:00:00+01:00");
        assert_eq!(october["totals"]["conversations_opened"], 2);

        // A day more is refused.
        let (status, body) = app
            .get(
                "/api/reports/overview?from=2026-10-01&to=2026-11-01&bucket=hour&tz=Europe/Berlin",
                &biz.session.access,
            )
            .await;
        assert_eq!(status, 422, "{body}");
        assert!(
            body["detail"]
                .as_str()
                .expect("detail")
                .starts_with("from and to")
        );
    }
);
