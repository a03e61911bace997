package memgate.messages_test

import rego.v1

# The words the ledger page shows (issue 25): every language says everything English says,
# and no sentence shows a code or a clause id to a person.

_paths(lang) := {concat(".", [section, key]) |
	some section in ["page", "kinds", "sources", "status"]
	some key, _ in data.memgate.messages[lang][section]
} | {concat(".", ["stop_reasons", key]) | some key, _ in data.memgate.messages[lang].refusals.stop_reasons}

test_every_language_has_every_english_message if {
	count(data.memgate.messages) >= 2
	every lang, _ in data.memgate.messages {
		_paths("en") - _paths(lang) == set()
		count(data.memgate.messages[lang].refusals.details) == count(data.memgate.messages.en.refusals.details)
	}
}

_sentences(lang) := ({s |
	some section in ["page", "kinds", "sources", "status"]
	some s in data.memgate.messages[lang][section]
} | {s | some s in data.memgate.messages[lang].refusals.stop_reasons}) | {d.text | some d in data.memgate.messages[lang].refusals.details}

test_no_sentence_shows_a_code if {
	every lang, _ in data.memgate.messages {
		every s in _sentences(lang) {
			not regex.match(`[A-Z][A-Z0-9]*-[A-Z]|[A-Z]+_[A-Z_]+|[a-z]+_[a-z_]+`, s)
		}
	}
}
