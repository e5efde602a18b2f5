// A shopping cart kept in memory, for the checkout page.

export class Cart {
  constructor() {
    this.items = [];
  }

  add(sku, price, qty = 1) {
    if (qty <= 0) {
      throw new RangeError(`quantity must be positive, got ${qty}`);
    }
    this.items.push({ sku, price, qty });
  }

  remove(sku) {
    this.items = this.items.filter((item) => item.sku !== sku);
  }

  total() {
    let sum = 0;
    for (const item of this.items) {
      sum += item.price * item.qty;
    }
    return Math.round(sum * 100) / 100;
  }

  count() {
    let n = 0;
    for (const item of this.items) {
      n += item.qty;
    }
    return n;
  }
}
