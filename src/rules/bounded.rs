//! Lists and maps read from a file with a bound on their length, checked as they are read: a file
//! that lists more is refused at the element past the bound, before anything more is allocated
//! (a session file's initiative of a million entries, a creature's ten thousand effects). Used
//! with serde's `deserialize_with`.

use std::collections::BTreeMap;
use std::fmt;
use std::marker::PhantomData;

use serde::de::{Deserialize, Deserializer, Error, MapAccess, SeqAccess, Visitor};

/// A list of at most `N` elements.
pub fn at_most<'de, D, T, const N: usize>(deserializer: D) -> Result<Vec<T>, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de>,
{
    struct List<T, const N: usize>(PhantomData<T>);
    impl<'de, T: Deserialize<'de>, const N: usize> Visitor<'de> for List<T, N> {
        type Value = Vec<T>;

        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            write!(f, "a list of at most {N}")
        }

        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Vec<T>, A::Error> {
            let mut list = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(N).min(1024));
            while let Some(element) = seq.next_element()? {
                if list.len() == N {
                    return Err(A::Error::custom(format!("a list of more than {N}: at most {N}")));
                }
                list.push(element);
            }
            Ok(list)
        }
    }
    deserializer.deserialize_seq(List::<T, N>(PhantomData))
}

/// A map of at most `N` entries.
pub fn at_most_entries<'de, D, K, V, const N: usize>(deserializer: D) -> Result<BTreeMap<K, V>, D::Error>
where
    D: Deserializer<'de>,
    K: Deserialize<'de> + Ord,
    V: Deserialize<'de>,
{
    struct Map<K, V, const N: usize>(PhantomData<(K, V)>);
    impl<'de, K: Deserialize<'de> + Ord, V: Deserialize<'de>, const N: usize> Visitor<'de> for Map<K, V, N> {
        type Value = BTreeMap<K, V>;

        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            write!(f, "a map of at most {N} entries")
        }

        fn visit_map<A: MapAccess<'de>>(self, mut access: A) -> Result<BTreeMap<K, V>, A::Error> {
            let mut map = BTreeMap::new();
            while let Some((key, value)) = access.next_entry()? {
                if map.len() == N {
                    return Err(A::Error::custom(format!("a map of more than {N} entries: at most {N}")));
                }
                map.insert(key, value);
            }
            Ok(map)
        }
    }
    deserializer.deserialize_map(Map::<K, V, N>(PhantomData))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(serde::Deserialize, Debug)]
    struct Bounded {
        #[serde(deserialize_with = "at_most::<_, _, 3>")]
        list: Vec<u8>,
        #[serde(default, deserialize_with = "at_most_entries::<_, _, _, 2>")]
        map: BTreeMap<String, u8>,
    }

    #[test]
    fn a_list_past_its_bound_is_refused_as_it_is_read() {
        let ok: Bounded = serde_json::from_str(r#"{"list": [1, 2, 3], "map": {"a": 1, "b": 2}}"#).expect("within");
        assert_eq!((ok.list.len(), ok.map.len()), (3, 2));
        let long = serde_json::from_str::<Bounded>(r#"{"list": [1, 2, 3, 4]}"#).expect_err("past");
        assert!(long.to_string().contains("at most 3"), "{long}");
        // The element past the bound is where it stops: the rest needn't even be valid.
        let stopped = serde_json::from_str::<Bounded>(r#"{"list": [1, 2, 3, 4, "rubbish"#).expect_err("past");
        assert!(stopped.to_string().contains("at most 3"), "{stopped}");
        let wide = serde_json::from_str::<Bounded>(r#"{"list": [], "map": {"a": 1, "b": 2, "c": 3}}"#);
        assert!(wide.expect_err("past").to_string().contains("at most 2"));
    }
}
