// A tiny shopping cart used by the edit-engine demo.

const TAX_RATE = 0.2;

/**
 * Sum of item prices times quantities.
 */
export function calculateTotal(items) {
  let total = 0;
  for (const item of items) {
    total += item.price * item.quantity;
  }
  return total;
}

export class Cart {
  constructor() {
    this.items = [];
  }

  add(item) {
    this.items.push(item);
    return this;
  }

  total() {
    return calculateTotal(this.items) * (1 + TAX_RATE);
  }
}
