import { describe, expect, it } from 'vitest';
import { Changes } from '../../src/events/changes.js';
import { afterCommit, collectAfterCommit, type Tx } from '../../src/db/transaction.js';

describe('committed changes', () => {
  it('reach every subscriber once the transaction commits, and never when it rolls back', async () => {
    const changes = new Changes();
    const heard: string[][] = [[], []];
    changes.subscribe((id) => void heard[0]!.push(id));
    changes.subscribe((id) => void heard[1]!.push(id));

    const rolledBack = {} as Tx;
    collectAfterCommit(rolledBack);
    changes.changed(rolledBack, 'biz-rolled-back');

    const committed = {} as Tx;
    const callbacks = collectAfterCommit(committed);
    changes.changed(committed, 'biz-a');
    changes.changed(committed, 'biz-b');
    expect(heard).toEqual([[], []]);
    await afterCommit(callbacks, (err) => {
      throw err;
    });
    expect(heard).toEqual([
      ['biz-a', 'biz-b'],
      ['biz-a', 'biz-b'],
    ]);
  });

  it('needs a transaction that runs work after commit', () => {
    expect(() => new Changes().changed({} as Tx, 'biz')).toThrow(/onCommit needs a transaction/);
  });
});
