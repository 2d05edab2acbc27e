//! The conversation list's search for a name that many customers hold: read along the list's
//! order instead of gathered, it finds exactly what the word index finds, under every filter.

use crate::both_backends;
use crate::helpers::*;
use crate::list_search::{label_all, numbers, page_of, resolve, write_many};

/// Each customer's name by their place: `sara` starts the first two names' words, and the third
/// and fourth hold `sar` and `khalil` only inside a word.
const NAMES: [&str; 4] = ["Sara Khan", "Sarah Lee", "Omar Sarkis", "Lena Abukhalil"];

/// The numbers of `phones` whose place `keep` picks, newest activity first (each customer wrote
/// a second after the one before).
fn newest_first(phones: &[String], keep: impl Fn(usize) -> bool) -> Vec<&str> {
    let kept = phones.iter().enumerate().filter(|(i, _)| keep(*i));
    kept.rev().map(|(_, phone)| phone.as_str()).collect()
}

both_backends!(
    a_name_many_customers_hold_finds_what_the_word_index_finds_in_the_list_order,
    |backend| async move {
        let app = spawn_app(backend).await;
        let biz = app.business("common_names").await;
        let token = &biz.session.access;
        // 2,000 customers, a thousand of them Saras, and another business's 1,000 Sara Khalils:
        // enough of `sara` in either business, and of `khalil` in the other, for either backend
        // to read them along the list's order.
        let phones: Vec<String> = (0..2_000).map(|i| format!("4477001{i:05}")).collect();
        let customers: Vec<(String, String)> = phones
            .iter()
            .enumerate()
            .map(|(i, phone)| (phone.clone(), NAMES[i % 4].to_string()))
            .collect();
        write_many(&app, &biz, &customers, 1_763_700_000).await;
        let other = app.business("common_names_other").await;
        let theirs: Vec<(String, String)> = (0..1_000)
            .map(|i| (format!("4915100{i:05}"), "Sara Khalil".to_string()))
            .collect();
        write_many(&app, &other, &theirs, 1_763_700_000).await;

        // Every page of `sara` in the list's order: the Sara Khans and Sarah Lees, none of the
        // other business's customers.
        let saras = newest_first(&phones, |i| i % 4 < 2);
        assert_eq!(saras.len(), 1_000);
        for page in 1..=10 {
            let query = format!("status=all&search_query=sara&limit=100&page={page}");
            let (rows, more) = page_of(&app, token, &query).await;
            let start = (page - 1) * 100;
            assert_eq!(numbers(&rows), saras[start..start + 100], "page {page}");
            assert_eq!(more, page < 10, "page {page}");
        }
        let (past, more) = page_of(
            &app,
            token,
            "status=all&search_query=sara&limit=100&page=11",
        )
        .await;
        assert!(past.is_empty() && !more);

        // Every word but the last is whole: `sara kh` finds the Sara Khans only.
        let (khans, _) = page_of(&app, token, "status=all&search_query=sara%20kh&limit=100").await;
        assert_eq!(
            numbers(&khans),
            newest_first(&phones, |i| i % 4 == 0)[..100]
        );

        // The status filter, along with the name.
        for place in [0, 5, 8] {
            resolve(&app, token, &phones[place]).await;
        }
        let (resolved, _) = page_of(&app, token, "status=resolved&search_query=sara").await;
        let resolved_saras = [phones[8].as_str(), phones[5].as_str(), phones[0].as_str()];
        assert_eq!(numbers(&resolved), resolved_saras);
        let (open, more) = page_of(
            &app,
            token,
            "status=open&search_query=sara&limit=100&page=10",
        )
        .await;
        let open_saras: Vec<&str> = saras
            .iter()
            .filter(|phone| !resolved_saras.contains(phone))
            .copied()
            .collect();
        assert_eq!(numbers(&open), open_saras[900..997]);
        assert!(!more);

        // Under a label: only the conversations that carry it.
        let vip = app.label(token, "VIP", "#D93F0B").await;
        label_all(&app, token, [phones[3].as_str(), phones[4].as_str()], &vip).await;
        let (labelled, _) = page_of(
            &app,
            token,
            &format!("status=all&label={vip}&search_query=sara"),
        )
        .await;
        assert_eq!(numbers(&labelled), [phones[4].as_str()]);

        // `khalil` is a word only the other business's customers hold: here the typed text is
        // found anywhere instead, inside the Abukhalils' names.
        let (inside, _) = page_of(&app, token, "status=all&search_query=khalil&limit=100").await;
        assert_eq!(
            numbers(&inside),
            newest_first(&phones, |i| i % 4 == 3)[..100]
        );

        // The other business finds its own Sara Khalils, in its list's order, by two words
        // (gathered) and by one (walked).
        let their_phones: Vec<String> = theirs.into_iter().map(|(phone, _)| phone).collect();
        for typed in ["sara%20kh", "khalil"] {
            let (last, more) = page_of(
                &app,
                &other.session.access,
                &format!("status=all&search_query={typed}&limit=100&page=10"),
            )
            .await;
            assert_eq!(
                numbers(&last),
                newest_first(&their_phones, |i| i < 100),
                "{typed}"
            );
            assert!(!more, "{typed}");
        }
    }
);
