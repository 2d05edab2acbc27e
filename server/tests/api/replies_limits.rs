//! The automated-reply form's limits over HTTP: each refused with its message.

use serde_json::json;

use crate::both_backends;
use crate::helpers::*;
use crate::replies::*;

both_backends!(
    the_form_limits_are_refused_with_their_messages,
    |backend| async move {
        let app = spawn_app(backend).await;
        let token = app.register("limits").await.access;
        let four = json!([
            {"id": "a", "title": "A"}, {"id": "b", "title": "B"},
            {"id": "c", "title": "C"}, {"id": "d", "title": "D"}
        ])
        .to_string();
        let long_title = json!([{"id": "a", "title": "This title is far too long"}]).to_string();
        let mut eleven_sections = list_json();
        eleven_sections["action"]["sections"] =
        json!((0..11).map(|i| json!({"title": format!("S{i}"), "rows": [{"id": format!("r{i}"), "title": "R"}]})).collect::<Vec<_>>());
        let mut eleven_rows = list_json();
        eleven_rows["action"]["sections"][0]["rows"] = json!(
            (0..11)
                .map(|i| json!({"id": format!("r{i}"), "title": "R"}))
                .collect::<Vec<_>>()
        );
        let mut no_sections = list_json();
        no_sections["action"]["sections"] = json!([]);
        let mut no_header = list_json();
        no_header["header"]["text"] = json!(" ");
        let mut no_row_id = list_json();
        no_row_id["action"]["sections"][0]["rows"][1]["id"] = json!("");
        let mut untitled_section = list_json();
        untitled_section["action"]["sections"][0]["title"] = json!("");
        let mut no_button = list_json();
        no_button["action"]["button"] = json!("");
        let (eleven_sections, eleven_rows, no_sections, no_header, no_row_id, untitled, no_button) = (
            eleven_sections.to_string(),
            eleven_rows.to_string(),
            no_sections.to_string(),
            no_header.to_string(),
            no_row_id.to_string(),
            untitled_section.to_string(),
            no_button.to_string(),
        );
        let text = |extra: Vec<(&'static str, String)>| {
            let mut fields = vec![
                ("trigger", "t".to_string()),
                ("responseText", "r".to_string()),
            ];
            fields.extend(extra);
            fields
        };
        let list = |json: &String| {
            vec![
                ("trigger", "t".to_string()),
                ("type", "interactive".to_string()),
                ("interactive", json.clone()),
            ]
        };
        let cases: Vec<(Vec<(&str, String)>, &str)> = vec![
            (vec![("responseText", "r".into())], "Trigger is required"),
            (
                vec![("trigger", "  ".into()), ("responseText", "r".into())],
                "Trigger is required",
            ),
            (vec![("trigger", "t".into())], "Response text is required"),
            (
                text(vec![("type", "video".into())]),
                "Type must be text or interactive",
            ),
            (
                text(vec![("cooldownHours", "-1".into())]),
                "Cooldown must be a number of hours, 0 or more",
            ),
            (
                text(vec![("cooldownInHours", "soon".into())]),
                "Cooldown must be a number of hours, 0 or more",
            ),
            (
                text(vec![("isActive", "maybe".into())]),
                "isActive must be true or false",
            ),
            (
                text(vec![("quickReplyButtons", four)]),
                "At most 3 quick reply buttons are allowed",
            ),
            (
                text(vec![("quickReplyButtons", long_title)]),
                "Quick reply button \"This title is far too long\" must be at most 20 characters",
            ),
            (
                text(vec![("quickReplyButtons", "{}".into())]),
                "quickReplyButtons must be a JSON list of {id, title}",
            ),
            (
                vec![("trigger", "t".into()), ("type", "interactive".into())],
                "The interactive list is required",
            ),
            (
                list(&eleven_sections),
                "A list can have at most 10 sections",
            ),
            (list(&eleven_rows), "Section 1 can have at most 10 rows"),
            (list(&no_sections), "A list needs at least one section"),
            (list(&no_header), "List header text is required"),
            (list(&no_button), "List button label is required"),
            (list(&untitled), "Section 1 title is required"),
            (list(&no_row_id), "Section 1, row 2 needs an id and a title"),
            (
                text(vec![(
                    "flow_definitions",
                    json!({"ghost": {"responseText": "boo"}}).to_string(),
                )]),
                "Flow step \"ghost\" is not linked to any button",
            ),
        ];
        for (fields, message) in cases {
            let fields: Vec<(&str, &str)> = fields.iter().map(|(k, v)| (*k, v.as_str())).collect();
            let (status, body) = create(&app, &token, form(&fields, &[])).await;
            assert_eq!(status, 422, "{message}: {body}");
            assert_eq!(body["detail"], message);
            assert_eq!(body["code"], "validation_failed");
        }
        let fields = [("trigger", "t"), ("responseText", "r")];
        let (status, body) = create(
            &app,
            &token,
            form(&fields, &[("main_media_file", "a.png", b"just text")]),
        )
        .await;
        assert_eq!(status, 422);
        assert!(
            body["detail"]
                .as_str()
                .expect("detail")
                .starts_with("Unsupported media file")
        );
        let mut big = PNG.to_vec();
        big.resize(5 * 1024 * 1024 + 1, 0);
        let (status, body) = create(
            &app,
            &token,
            form(&fields, &[("main_media_file", "a.png", &big)]),
        )
        .await;
        assert_eq!(status, 422);
        assert_eq!(body["detail"], "The image file must be at most 5 MB");

        let interactive = list_json().to_string();
        let fields = [
            ("trigger", "menu"),
            ("type", "interactive"),
            ("interactive", interactive.as_str()),
        ];
        let (status, body) = create(&app, &token, form(&fields, &[])).await;
        assert_eq!(status, 201, "{body}");
        assert_eq!(body["interactive"], list_json());
        let (_, list) = app.get("/api/automated-replies/", &token).await;
        assert_eq!(
            list.as_array().map(Vec::len),
            Some(1),
            "nothing refused was stored"
        );
    }
);
