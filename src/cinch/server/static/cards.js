// Cards in words and symbols, and what a suit would give as trumps: shared by the table and the lobby.

export const SUITS = { S: "♠", H: "♥", D: "♦", C: "♣" };
export const SUIT_NAMES = { S: "spades", H: "hearts", D: "diamonds", C: "clubs" };
const RANK_NAMES = {
  A: "ace", K: "king", Q: "queen", J: "jack", T: "10", 9: "9", 8: "8", 7: "7", 6: "6", 5: "5", 4: "4",
  3: "3", 2: "2",
};
const RANK_ORDER = "AKQJT98765432";
export const PARTNER_SUIT = { S: "C", C: "S", H: "D", D: "H" }; // the same colour: the left Pedro's suit
export const SEATS = ["N", "E", "S", "W"];

// All-hands Pedro (the rules' option `bowers`): the Jack of trumps (right bower) and the Jack of the same
// colour (left bower) rank above the ace, and the left bower is a trump in the left Pedro's place. A page
// shows one game at a time, so it says once which trumps it draws (the state's `deal.bowers`, the replay's
// `rules.bowers`, the puzzle's `bowers`) and every function below follows.
let bowers = false;

/** Draw the trumps of all-hands Pedro (`true`) or the ordinary ones. */
export function setBowers(on) {
  bowers = Boolean(on);
}

/** The trump of the same colour's suit: the left Pedro ("5D" with hearts), or under bowers the left bower ("JD"). */
export function leftCard(trump) {
  return (bowers ? "J" : "5") + PARTNER_SUIT[trump];
}

/** What the trumps hold beyond their suit, in words: "the 5♦ is a trump too", or the bowers. */
export function trumpNote(trump) {
  if (!bowers) return `the ${cardText(leftCard(trump))} is a trump too`;
  return `the bowers ${cardText("J" + trump)} and ${cardText(leftCard(trump))} rank above the ace; ` +
    `the ${cardText("5" + PARTNER_SUIT[trump])} is a plain card`;
}

export function rankText(card) {
  return card[0] === "T" ? "10" : card[0];
}

/** "10♥" */
export function cardText(card) {
  return rankText(card) + SUITS[card[1]];
}

/** "10 of hearts" (and ", trump" once trumps are named and the card is one). */
export function cardName(card, trump) {
  let name = `${RANK_NAMES[card[0]]} of ${SUIT_NAMES[card[1]]}`;
  if (trump && isTrump(card, trump)) name += ", trump";
  return name;
}

export function isTrump(card, trump) {
  return card[1] === trump || card === leftCard(trump);
}

/** How many trumps, and which 5-point cards (the Pedros, or the right Pedro and the left bower), a hand
 * would hold if `suit` were named (a card held twice, with two decks, counts twice). */
export function trumpsIf(hand, suit) {
  const trumps = hand.filter((c) => isTrump(c, suit));
  const pedros = [];
  const held = (card, name) => { // (with two decks a card may be held twice: "two right Pedros")
    const copies = hand.filter((c) => c === card).length;
    if (copies) pedros.push(copies > 1 ? `two ${name}s` : name);
  };
  held("5" + suit, "right Pedro");
  held(leftCard(suit), bowers ? "left bower" : "left Pedro");
  return { count: trumps.length, pedros };
}

/** Where a trump ranks, 0 the highest: the bowers on top under all-hands Pedro, the left Pedro below the right. */
function trumpRank(card, trump) {
  if (bowers && card === "J" + trump) return -2;
  if (bowers && card === leftCard(trump)) return -1;
  return RANK_ORDER.indexOf(card[0]) + (card[1] !== trump ? 0.5 : 0);
}

// The suits of a hand in order, the trump suit first, black and red by turns (as a player fans them).
const SUIT_ORDER = { "": "SHCD", S: "SHCD", H: "HSDC", D: "DSHC", C: "CHSD" };

/** A hand as the table lays it out: trumps first (high to low, the left Pedro below the right, the bowers
 * on top), then the other suits, black and red by turns. */
export function sortHand(hand, trump) {
  const suitOrder = [...SUIT_ORDER[trump || ""]];
  const key = (c) => {
    if (trump && isTrump(c, trump)) return [0, trumpRank(c, trump)];
    return [1 + suitOrder.indexOf(c[1]), RANK_ORDER.indexOf(c[0])];
  };
  return [...hand].sort((a, b) => {
    const ka = key(a), kb = key(b);
    return ka[0] - kb[0] || ka[1] - kb[1];
  });
}

/** The one trump mark of every page: ★, on a card and after a trump in words. */
export const TRUMP_MARK = "★";

/** Server text with its trumps marked as the cards mark them: "10♥*" (the terminal's mark) becomes "10♥★". */
export function trumpStars(text) {
  return String(text).replace(/(10|[2-9JQKA])([♠♥♦♣])\*/g, `$1$2${TRUMP_MARK}`);
}

/** A card as a DOM element (a button with `button`): its index in the corner (rank over suit), a large pip in
 * the middle, and the trump mark. The look is cards.css's; `--w` sets the card's width where it lies. */
export function cardElement(card, { trump = null, button = false, label = null } = {}) {
  const el = document.createElement(button ? "button" : "span");
  el.className = `card suit-${card[1]}`;
  if (trump && isTrump(card, trump)) el.classList.add("trump");
  el.dataset.card = card;
  const rank = document.createElement("span");
  rank.className = "rank";
  rank.textContent = rankText(card);
  const suit = document.createElement("span");
  suit.className = "pip";
  suit.textContent = SUITS[card[1]];
  const big = document.createElement("span");
  big.className = "face";
  big.textContent = SUITS[card[1]];
  big.setAttribute("aria-hidden", "true");
  el.append(rank, suit, big);
  if (trump && isTrump(card, trump)) {
    const star = document.createElement("span");
    star.className = "trump-mark";
    star.textContent = TRUMP_MARK;
    star.setAttribute("aria-hidden", "true");
    el.append(star);
  }
  if (button) el.type = "button";
  el.setAttribute(button ? "aria-label" : "title", label || cardName(card, trump));
  if (!button) {
    el.setAttribute("role", "img");
    el.setAttribute("aria-label", label || cardName(card, trump));
  }
  return el;
}

/** The seat on the left of `seat` (clockwise N E S W: the next to play). */
export function leftOf(seat) {
  return SEATS[(SEATS.indexOf(seat) + 1) % 4];
}

export function partnerOf(seat) {
  return SEATS[(SEATS.indexOf(seat) + 2) % 4];
}

/** The four-colour deck (clubs green, diamonds blue): the checkbox, kept in this browser for every page. */
export function fourColour(box) {
  const key = "cinch:four-colour";
  const on = localStorage.getItem(key) === "true";
  box.checked = on;
  document.body.classList.toggle("four-colour", on);
  box.addEventListener("change", () => {
    localStorage.setItem(key, String(box.checked));
    document.body.classList.toggle("four-colour", box.checked);
  });
}
