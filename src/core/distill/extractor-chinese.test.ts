import { describe, expect, it } from 'vitest';
import { admit } from './admission.js';

/** Chinese memories an extractor wrote, in the shapes extractor-chinese.ts reads, through the whole gate. */
const verdict = (text: string) => {
  const d = admit({ text, source: 'llm' });
  return d.admitted ? 'kept' : d.reason;
};

describe('Chinese memories an extractor wrote', () => {
  it('rejects work done without a subject, work in progress, plans ahead and one-off errands', () => {
    expect(verdict('查了上海到杭州的高铁时刻表')).toBe('session-event');
    expect(verdict('已经把 worker 的内存 limit 调到 2Gi')).toBe('session-event');
    expect(verdict('用户在压测时发现连接池被耗尽')).toBe('session-event');
    expect(verdict('在排查登录页加载慢的问题')).toBe('passing-state');
    expect(verdict('下周要把 1.2.0 发布到 npm')).toBe('passing-state');
    expect(verdict('提醒用户周五下午去取快递')).toBe('task-request');
    expect(verdict('用户让我排查 payment 服务一直重启的原因')).toBe('task-request');
  });

  it('keeps terse standing facts, habits and long-running study', () => {
    expect(verdict('乳糖不耐受')).toBe('kept');
    expect(verdict('团队每周二发版')).toBe('kept');
    expect(verdict('项目用 Go 1.22')).toBe('kept');
    expect(verdict('不喝咖啡，只喝茶')).toBe('kept');
    expect(verdict('在学日语，目标是考 N2')).toBe('kept');
    expect(verdict('用户以后都用中文回复')).toBe('kept');
  });

  it('reads a verb heading a noun as the thing, not a request', () => {
    expect(verdict('测试环境的 Redis 只接受 VPN 网段的连接。')).toBe('kept');
    expect(verdict('部署脚本放在 ops/deploy 目录下')).toBe('kept');
    expect(verdict('测试一下登录接口')).toBe('task-request');
    expect(verdict('比较结果：海豹续航更长')).not.toBe('kept');
  });
});
