//! Contact import from the files people really export: vCard 2.1 with quoted-printable names,
//! files in UTF-16 or Windows-1252, Google's and Outlook's CSV headers, `;`-separated CSV and a
//! vCard cut before its last `END:VCARD`; an odd JSON entry is skipped, not the list, and an
//! empty file is refused as empty.

use serde_json::json;

use crate::both_backends;
use crate::contact_files::{contacts, file, import};
use crate::helpers::*;

/// (phone, name) pairs as `contacts` lists them.
fn listed(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
    pairs
        .iter()
        .map(|(phone, name)| (phone.to_string(), name.to_string()))
        .collect()
}

/// UTF-16 with its byte order mark, little or big endian.
fn utf16(text: &str, little_endian: bool) -> Vec<u8> {
    let bom: &[u8] = if little_endian {
        &[0xFF, 0xFE]
    } else {
        &[0xFE, 0xFF]
    };
    let units = text.encode_utf16().flat_map(|unit| {
        if little_endian {
            unit.to_le_bytes()
        } else {
            unit.to_be_bytes()
        }
    });
    bom.iter().copied().chain(units).collect()
}

/// As Android exports non-ASCII names (2.1, a soft line break inside `FN`), with the parameter
/// orders and the bare `QUOTED-PRINTABLE` other phones write, and a Latin-1 charset.
const QUOTED_PRINTABLE: &str = "BEGIN:VCARD\r\nVERSION:2.1\r\n\
N;CHARSET=UTF-8;ENCODING=QUOTED-PRINTABLE:Dupr=C3=A9;=C3=89lodie;;;\r\n\
FN;CHARSET=UTF-8;ENCODING=QUOTED-PRINTABLE:=C3=89lodie Dupr=\r\n=C3=A9\r\n\
TEL;CELL:+33 6 12 34 56 78\r\nEND:VCARD\r\n\
BEGIN:VCARD\r\nVERSION:2.1\r\nN;ENCODING=QUOTED-PRINTABLE;CHARSET=UTF-8:=C3=98ster;S=C3=B8ren;;;\r\n\
TEL;CELL;PREF:+45 20 12 34 56\r\nEND:VCARD\r\n\
BEGIN:VCARD\r\nVERSION:2.1\r\nFN;QUOTED-PRINTABLE:Jos=C3=A9 Ram=C3=ADrez\r\n\
TEL;HOME:+34 612 34 56 78\r\nEND:VCARD\r\n\
BEGIN:VCARD\r\nVERSION:3.0\r\nFN;CHARSET=ISO-8859-1;ENCODING=QUOTED-PRINTABLE:J=FCrgen M=FCller\r\n\
TEL;TYPE=CELL:+49 151 99999999\r\nEND:VCARD\r\n";

both_backends!(
    quoted_printable_vcard_names_import_decoded,
    |backend| async move {
        let app = spawn_app(backend).await;
        let token = app.register("qpimport").await.access;
        let form = file("android.vcf", "text/x-vcard", QUOTED_PRINTABLE.as_bytes());
        let (status, counts) = import(&app, &token, form).await;
        assert_eq!(status, 200, "{counts}");
        assert_eq!(
            counts,
            json!({"added": 4, "updated": 0, "unchanged": 0, "skipped": 0})
        );
        assert_eq!(
            contacts(&app, &token).await,
            listed(&[
                ("33612345678", "Élodie Dupré"),
                ("34612345678", "José Ramírez"),
                ("4520123456", "Søren Øster"),
                ("4915199999999", "Jürgen Müller"),
            ])
        );
    }
);

both_backends!(windows_1252_and_utf_16_files_import, |backend| async move {
    let app = spawn_app(backend).await;
    let token = app.register("encodings").await.access;
    // Excel and Outlook on Windows write `é` as the single byte 0xE9.
    let cp1252 = b"Name,Phone\nRen\xe9 Fran\xe7ois,+33 6 12 34 56 78\n";
    let card = "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Zoë Straße\r\nTEL:+49 151 99999999\r\n\
                    END:VCARD\r\n";
    let csv = "Name,Phone\r\nŁukasz Żak,+48 512 345 678\r\n";
    let files = [
        file("outlook.csv", "text/csv", cp1252),
        file("phone.vcf", "text/vcard", &utf16(card, true)),
        file("unicode.csv", "text/csv", &utf16(csv, false)),
    ];
    for form in files {
        let (status, counts) = import(&app, &token, form).await;
        assert_eq!(status, 200, "{counts}");
        assert_eq!(
            counts,
            json!({"added": 1, "updated": 0, "unchanged": 0, "skipped": 0})
        );
    }
    assert_eq!(
        contacts(&app, &token).await,
        listed(&[
            ("33612345678", "René François"),
            ("48512345678", "Łukasz Żak"),
            ("4915199999999", "Zoë Straße"),
        ])
    );
});

both_backends!(
    google_outlook_and_semicolon_csv_headers_import,
    |backend| async move {
        let app = spawn_app(backend).await;
        let token = app.register("exporters").await.access;
        let google = "First Name,Middle Name,Last Name,Phone 1 - Label,Phone 1 - Value,\
                      Phone 2 - Label,Phone 2 - Value\n\
                      Ada,,Lovelace,Mobile,+44 7700 900123 ::: +44 7700 900124,Work,\n\
                      Grace,,Hopper,,,Home,+1 202 555 0143\n";
        let outlook = "First Name,Middle Name,Last Name,Business Phone,Home Phone,Mobile Phone,\
                       Business Fax\nJean,Luc,Picard,,+33 1 23 45 67 89,+33 6 12 34 56 78,\
                       +33 1 00 00 00 00\n";
        let semicolons = "Name;Phone;Notes\n\"Doe; Jane\";+49 151 99999999;a, b\n";
        let files = [
            (file("google.csv", "text/csv", google.as_bytes()), 3),
            (file("outlook.csv", "text/csv", outlook.as_bytes()), 2),
            (file("excel.csv", "text/csv", semicolons.as_bytes()), 1),
        ];
        for (form, added) in files {
            let (status, counts) = import(&app, &token, form).await;
            assert_eq!(status, 200, "{counts}");
            assert_eq!(
                counts,
                json!({"added": added, "updated": 0, "unchanged": 0, "skipped": 0})
            );
        }
        assert_eq!(
            contacts(&app, &token).await,
            listed(&[
                ("12025550143", "Grace Hopper"),
                ("33123456789", "Jean Luc Picard"),
                ("33612345678", "Jean Luc Picard"),
                ("447700900123", "Ada Lovelace"),
                ("447700900124", "Ada Lovelace"),
                ("4915199999999", "Doe; Jane"),
            ])
        );
    }
);

both_backends!(
    a_vcard_cut_before_its_last_end_keeps_that_card,
    |backend| async move {
        let app = spawn_app(backend).await;
        let token = app.register("cutvcard").await.access;
        let cards = "BEGIN:VCARD\nVERSION:3.0\nFN:Omar\nTEL:+20 100 123 4567\nEND:VCARD\n\
                     BEGIN:VCARD\nVERSION:3.0\nFN:Layla Haddad\nTEL:+971 50 123 4567\n";
        let form = file("cut.vcf", "text/vcard", cards.as_bytes());
        let (status, counts) = import(&app, &token, form).await;
        assert_eq!(status, 200, "{counts}");
        assert_eq!(
            counts,
            json!({"added": 2, "updated": 0, "unchanged": 0, "skipped": 0})
        );
        assert_eq!(
            contacts(&app, &token).await,
            listed(&[("201001234567", "Omar"), ("971501234567", "Layla Haddad")])
        );
    }
);

both_backends!(
    an_odd_json_entry_is_skipped_not_the_whole_list,
    |backend| async move {
        let app = spawn_app(backend).await;
        let token = app.register("oddjson").await.access;
        let list = json!({"contacts": [
            null,
            42,
            "Ada",
            {"name": "Numeric", "phone_number": 4915100000000_u64},
            {"name": "Omar", "phone_number": "+20 100 123 4567"},
        ]});
        let (status, counts) = app.post("/api/contacts/import", list, Some(&token)).await;
        assert_eq!(status, 200, "{counts}");
        assert_eq!(
            counts,
            json!({"added": 1, "updated": 0, "unchanged": 0, "skipped": 4})
        );
        assert_eq!(
            contacts(&app, &token).await,
            listed(&[("201001234567", "Omar")])
        );
        // A body that is not a list of contacts at all is still refused.
        for (body, refused) in [
            (json!({"contacts": 5}), 400),
            (json!({"contacts": {"name": "Ada"}}), 400),
            (json!([{"name": "Ada"}]), 400),
            (json!({}), 422),
        ] {
            let (status, answer) = app
                .post("/api/contacts/import", body.clone(), Some(&token))
                .await;
            assert_eq!(status, refused, "{body}: {answer}");
        }
    }
);

both_backends!(an_empty_file_is_refused_as_empty, |backend| async move {
    let app = spawn_app(backend).await;
    let token = app.register("emptyfile").await.access;
    for name in ["contacts.vcf", "contacts.csv"] {
        let (status, body) = import(&app, &token, file(name, "text/plain", b"")).await;
        assert_eq!(status, 422, "{body}");
        assert_eq!(body["code"], "validation_failed");
        assert_eq!(body["detail"], "file is empty", "{body}");
    }
});
