// The fair shuffle, checked in the browser (docs/record-format.md, "Verifiable shuffles"):
// the commitment matches the revealed deck and salt, and the deck follows from the salt, every seat's
// entropy and the deal's number by SHA-256 alone.

const CANONICAL = [];
for (const suit of "SHDC") for (const rank of "AKQJT98765432") CANONICAL.push(rank + suit);
// Two-deck Cinch shuffles both packs: each card twice, side by side (AS AS KS KS ...).
const TWO_PACKS = CANONICAL.flatMap((card) => [card, card]);

const enc = new TextEncoder();

async function sha256(bytes) {
  return new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
}

function hex(bytes) {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

export async function commitment(deckText, salt) {
  return hex(await sha256(enc.encode(`cinch/1 commitment\n${deckText}\n${salt}`)));
}

/** The seats' entropy in the seed's order: N E S W at four, 1 to n at a cut-throat table. */
function seatOrder(entropy) {
  return "N" in entropy ? ["N", "E", "S", "W"] : Object.keys(entropy).sort((a, b) => Number(a) - Number(b));
}

/** The 52 cards a shuffle deals (104 with `decks` 2), top first. */
export async function deriveDeck(salt, entropy, number, decks = 1) {
  const seats = seatOrder(entropy).map((s) => `${entropy[s]}\n`).join("");
  const seed = await sha256(enc.encode(`cinch/1 shuffle\n${salt}\n${seats}${number}`));
  const label = enc.encode("deck");
  let block = 0;
  let words = [];
  const next = async () => {
    if (!words.length) {
      const input = new Uint8Array(seed.length + label.length + 8);
      input.set(seed, 0);
      input.set(label, seed.length);
      new DataView(input.buffer).setBigUint64(seed.length + label.length, BigInt(block++));
      const out = new DataView((await sha256(input)).buffer);
      words = Array.from({ length: 8 }, (_, i) => out.getUint32(i * 4));
    }
    return words.shift();
  };
  const deck = [...(decks === 2 ? TWO_PACKS : CANONICAL)];
  for (let i = deck.length - 1; i >= 1; i--) {
    const n = i + 1;
    const limit = 2 ** 32 - (2 ** 32 % n);
    let r = await next();
    while (r >= limit) r = await next();
    const j = r % n;
    [deck[i], deck[j]] = [deck[j], deck[i]];
  }
  return deck;
}

/** true when the revealed deck is the one promised and the one the salt and entropy deal. */
export async function verify(deal) {
  if (!crypto.subtle) return null; // (only in a secure context: https, or this machine)
  const r = deal.reveal;
  if (deal.commitment && deal.commitment !== r.commitment) return false;
  if ((await commitment(r.deck, r.salt)) !== r.commitment) return false;
  const derived = await deriveDeck(r.salt, r.entropy, deal.number, deal.decks || 1);
  return derived.join(" ") === r.deck;
}
