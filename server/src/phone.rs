//! Phone numbers as people write them (`+44 7700 900123`, `+44 (0) 7700 900123`,
//! `(555) 010-0002`, `00966 50 123 4567`, `tel:+447700900123`, Arabic-Indic digits), read with
//! libphonenumber's metadata into the E.164 digits Parley keeps (country code first, no `+`).
//!
//! A number written with `+` or `00` is international. One that starts with a trunk prefix (`0`)
//! or an area code in parentheses is read first as a national number of the default region (the
//! country of the business's own WhatsApp number); any other first as digits that start with
//! their country code (as Parley's own screens and files write them, and recipient files hold
//! them). The other reading is taken when the first makes no valid number (one of the number
//! ranges a country gives out) and the other does: `6505551234` in a US business is
//! `+1 650 555 1234`, not a Singapore number of a length Singapore's have but in no range of
//! theirs. When neither reading is valid, the first whose length is one the country's numbers
//! have is kept, so test and example numbers such as `+1 555 010 0002` stay usable, unless it
//! is a national reading of a `0` the country does not write (`0501234567` in a US business). What the
//! provider sends (`wa_id`, `from`) is already E.164 and is not read here.

pub use phonenumber::country::Id as Region;
use phonenumber::metadata::DATABASE;
use phonenumber::{Mode, PhoneNumber};

use crate::search_text::ascii_digit;

/// Text that is not a phone number.
#[derive(Debug, thiserror::Error)]
#[error(
    "'{0}' is not a valid phone number: write it with its country code (+44 7700 900123) or as \
     a number of the business's country"
)]
pub struct InvalidPhone(pub String);

/// The region numbers without a country code belong to: the one of `digits`, an E.164 number
/// (the business's own); `None` when it names no country.
pub fn region_of(digits: &str) -> Option<Region> {
    let number = phonenumber::parse(None, format!("+{}", digits.trim_start_matches('+'))).ok()?;
    number.country().id().or_else(|| {
        DATABASE
            .region(&number.code().value())?
            .first()?
            .parse()
            .ok()
    })
}

/// The E.164 digits of `raw`, read as described above; Arabic-Indic digits count as digits.
pub fn e164_digits(raw: &str, region: Option<Region>) -> Result<String, InvalidPhone> {
    let invalid = || InvalidPhone(raw.trim().to_string());
    let text: String = without_tel_scheme(raw.trim())
        .chars()
        .map(|c| ascii_digit(c).unwrap_or(c))
        .collect();
    // `+44 (0) 7700 900123`: the trunk prefix a national reader would dial, in parentheses.
    let international = match text.strip_prefix("00") {
        Some(rest) => Some(format!("+{rest}")),
        None => text.starts_with('+').then(|| text.clone()),
    }
    .map(|text| text.replace("(0)", ""));
    // The region the text may be a national number of: none when it is too long to be one.
    let home = region.filter(|region| may_be_national(*region, &text));
    let national = || {
        let region = home?;
        let number = possible(phonenumber::parse(Some(region), &text).ok())?;
        (number.is_valid() || !foreign_zero(region, &text)).then_some(number)
    };
    let with_country_code = || possible(phonenumber::parse(None, format!("+{text}")).ok());
    let number = match international {
        Some(text) => possible(phonenumber::parse(None, text).ok()),
        // No national reading to weigh (as with a file's E.164 digits, often).
        None if home.is_none() => with_country_code(),
        // A trunk prefix or an area code in parentheses is how numbers are written nationally.
        None if text.starts_with(['0', '(']) => either(national, with_country_code),
        None => either(with_country_code, national),
    };
    let number = number.ok_or_else(invalid)?;
    let digits = number.format().mode(Mode::E164).to_string();
    Ok(digits.trim_start_matches('+').to_string())
}

/// True when `text` starts with a `0` that is not how `region` writes its numbers nationally:
/// its national prefix is another (`1` in the US, whose numbers never start with `0`). Such a
/// number, `0501234567` in a US business, is most likely another country's written nationally,
/// so it is not kept as the region's on its length alone.
fn foreign_zero(region: Region, text: &str) -> bool {
    let prefix = DATABASE
        .by_id(region.as_ref())
        .and_then(|m| m.national_prefix());
    text.starts_with('0') && prefix.is_some_and(|p| !p.is_empty() && !text.starts_with(p))
}

/// A `tel:` URI's number (`tel:+447700900123;ext=2` → `+447700900123`); other text as it is.
fn without_tel_scheme(text: &str) -> &str {
    match text.get(..4) {
        Some(scheme) if scheme.eq_ignore_ascii_case("tel:") => {
            text[4..].split(';').next().unwrap_or_default()
        }
        _ => text,
    }
}

/// The `first` reading of a number when it is valid; else the `other` when that one is; else
/// whichever is possible, `first` before `other`. The other reading is only made when needed:
/// reading is what a 100,000-row file spends its time on.
fn either(
    first: impl FnOnce() -> Option<PhoneNumber>,
    other: impl FnOnce() -> Option<PhoneNumber>,
) -> Option<PhoneNumber> {
    let first = first();
    if first.as_ref().is_some_and(PhoneNumber::is_valid) {
        return first;
    }
    let other = other();
    if other.as_ref().is_some_and(PhoneNumber::is_valid) {
        return other;
    }
    first.or(other)
}

/// The starts of stored numbers (E.164 digits) that typed digits may be: as typed, after an
/// international `00`, and read as a national number of the region: written with its trunk
/// prefix (`07700 9`), with the country code in the prefix's place (`447700 9`); written without
/// (`650 555`, in a US business), after the country code (`1650 555`), unless the digits start
/// with it already or are too long for a national number. A prefix alone (`00`, or the trunk
/// prefix `0`) starts no number yet: it is read as typed, never as the empty start of every
/// number or the country code of every national one.
pub fn key_prefixes(digits: &str, region: Option<Region>) -> Vec<String> {
    if let Some(international) = digits.strip_prefix("00") {
        if international.is_empty() {
            return vec![digits.to_string()];
        }
        return vec![international.to_string()];
    }
    let mut prefixes = vec![digits.to_string()];
    let Some(region) = region else {
        return prefixes;
    };
    let Some(metadata) = DATABASE.by_id(region.as_ref()) else {
        return prefixes;
    };
    let code = metadata.country_code().to_string();
    let national = metadata
        .national_prefix()
        .filter(|trunk| !trunk.is_empty())
        .and_then(|trunk| digits.strip_prefix(trunk));
    let international = match national {
        Some("") => None,
        Some(national) => Some(format!("{code}{national}")),
        None if !digits.starts_with(&code) && may_be_national(region, digits) => {
            Some(format!("{code}{digits}"))
        }
        None => None,
    };
    prefixes.extend(international.filter(|international| international != digits));
    prefixes
}

/// False when `text` has more digits than any number of `region` written nationally (with its
/// national prefix) has: then it can only start with a country code, and reading it as
/// national is skipped (reading is what a 100,000-row file spends its time on).
fn may_be_national(region: Region, text: &str) -> bool {
    let Some(metadata) = DATABASE.by_id(region.as_ref()) else {
        return true;
    };
    let kinds = metadata.descriptors();
    let longest = [
        kinds.fixed_line(),
        kinds.mobile(),
        kinds.toll_free(),
        kinds.voip(),
    ]
    .into_iter()
    .flatten()
    .flat_map(|kind| kind.possible_length().iter().copied())
    .max()
    .unwrap_or(u16::MAX) as usize;
    let prefix = metadata.national_prefix().map_or(0, str::len);
    text.chars().filter(char::is_ascii_digit).count() <= longest + prefix
}

/// `number` when its national part has a length that one kind of the country's numbers (fixed,
/// mobile, toll-free, …) has. Length, not the number ranges: test and example numbers such as
/// `+1 555 010 0002` stay usable.
fn possible(number: Option<PhoneNumber>) -> Option<PhoneNumber> {
    let number = number?;
    let length = number.national().to_string().len() as u16;
    let fits = DATABASE
        .by_code(&number.code().value())?
        .iter()
        .flat_map(|metadata| {
            let kinds = metadata.descriptors();
            [
                kinds.fixed_line(),
                kinds.mobile(),
                kinds.toll_free(),
                kinds.premium_rate(),
                kinds.shared_cost(),
                kinds.personal_number(),
                kinds.voip(),
                kinds.pager(),
                kinds.uan(),
                kinds.voicemail(),
            ]
        })
        .flatten()
        .any(|kind| kind.possible_length().contains(&length));
    (number.extension().is_none() && fits).then_some(number)
}

#[cfg(test)]
mod tests {
    use super::*;
    use phonenumber::country;

    #[test]
    fn typed_digits_are_the_starts_of_numbers_as_stored_and_as_written_nationally() {
        let gb = Some(country::GB);
        assert_eq!(key_prefixes("447700", gb), ["447700"]);
        assert_eq!(key_prefixes("07700900", gb), ["07700900", "447700900"]);
        assert_eq!(key_prefixes("0044770", gb), ["44770"]);
        assert_eq!(key_prefixes("0770", None), ["0770"]);
        assert_eq!(key_prefixes("1555", Some(country::US)), ["1555"]);
        assert_eq!(
            key_prefixes("650555", Some(country::US)),
            ["650555", "1650555"]
        );
        assert_eq!(key_prefixes("7700900", gb), ["7700900", "447700900"]);
        assert_eq!(key_prefixes("4477009001234567", gb), ["4477009001234567"]);
        // A prefix alone is the digits as typed.
        assert_eq!(key_prefixes("00", gb), ["00"]);
        assert_eq!(key_prefixes("0", gb), ["0"]);
        assert_eq!(key_prefixes("000", gb), ["0"]);
    }

    #[test]
    fn bare_digits_take_the_reading_that_is_a_valid_number() {
        let us = Some(country::US);
        // As digits after a country code, +65 0555 1234 has a Singapore number's length but is
        // in none of Singapore's ranges: the US reading is a valid number.
        assert_eq!(
            e164_digits("6505551234", us).expect("a US number"),
            "16505551234"
        );
        assert_eq!(
            e164_digits("650 555 1234", us).expect("a US number"),
            "16505551234"
        );
        // Valid as an international number, it stays one.
        assert_eq!(
            e164_digits("447700900123", us).expect("a UK number"),
            "447700900123"
        );
        assert_eq!(
            e164_digits("7700 900123", Some(country::GB)).expect("a UK number"),
            "447700900123"
        );
    }

    #[test]
    fn written_numbers_become_e164_digits() {
        let us = Some(country::US);
        for (raw, digits) in [
            ("+44 7700 900123", "447700900123"),
            ("(555) 010-0002", "15550100002"),
            ("00966 50 123 4567", "966501234567"),
            ("+٩٦٦٥٠١٢٣٤٥٦٧", "966501234567"),
            ("۰۰۲۰ ۱۰۰ ۱۲۳ ۴۵۶۷", "201001234567"),
            ("201001234567", "201001234567"),
            ("15551234567", "15551234567"),
            ("4917000000", "4917000000"),
            ("+44 (0) 7700 900124", "447700900124"),
            ("0044 (0)7700 900124", "447700900124"),
            ("tel:+447700900125", "447700900125"),
            ("TEL:+44-7700-900125;ext=12", "447700900125"),
        ] {
            assert_eq!(e164_digits(raw, us).expect(raw), digits, "{raw}");
        }
    }

    #[test]
    fn a_national_number_takes_the_default_region() {
        assert_eq!(
            e164_digits("07700 900123", Some(country::GB)).expect("a UK number"),
            "447700900123"
        );
        assert_eq!(
            e164_digits("010 0123 4567", Some(country::EG)).expect("an Egyptian number"),
            "201001234567"
        );
        assert_eq!(
            e164_digits("050 123 4567", Some(country::SA)).expect("a Saudi number"),
            "966501234567"
        );
        assert_eq!(
            e164_digits("06 6982 1234", Some(country::IT)).expect("a number in Rome"),
            "390669821234"
        );
    }

    #[test]
    fn what_is_no_number_is_named_in_the_refusal() {
        for bad in [
            "12",
            "+1 555",
            "hello",
            "+999 1234567",
            "",
            "+44 7700 900123 456 789",
            "0501234567",
        ] {
            let err = e164_digits(bad, Some(country::US)).expect_err(bad);
            assert!(
                err.to_string().starts_with(&format!("'{}'", bad.trim())),
                "{err}"
            );
        }
    }

    #[test]
    fn the_region_follows_a_number() {
        assert_eq!(region_of("15551234567"), Some(country::US));
        assert_eq!(region_of("447700900123"), Some(country::GB));
        assert_eq!(region_of("966501234567"), Some(country::SA));
        assert_eq!(region_of(""), None);
    }
}
