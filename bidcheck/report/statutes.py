"""The statutes a finding rests on, as the dossier cites them: each sign mapped to a clause of
《招标投标法实施条例》第四十条 (or 《政府采购货物和服务招标投标管理办法》第三十七条 for government
procurement), marked 认定级 where the rules themselves take it as grounds (the same dongle or computer,
one file passed on, the same project manager, 混装, the same deposit account) or 线索级 where it is a
lead for the panel to ask about."""

from __future__ import annotations

from dataclasses import dataclass

from bidcheck.model import Signal

__all__ = ["ARTICLES", "CLAUSES", "Ground", "ground_of_passages", "ground_of_pattern", "ground_of_signal"]

# The statute texts cited (public law), clause by clause.
ARTICLES: dict[str, tuple[str, tuple[str, ...]]] = {
    "条例第四十条": (
        "《中华人民共和国招标投标法实施条例》第四十条　有下列情形之一的，视为投标人相互串通投标：",
        (
            "（一）不同投标人的投标文件由同一单位或者个人编制；",
            "（二）不同投标人委托同一单位或者个人办理投标事宜；",
            "（三）不同投标人的投标文件载明的项目管理成员为同一人；",
            "（四）不同投标人的投标文件异常一致或者投标报价呈规律性差异；",
            "（五）不同投标人的投标文件相互混装；",
            "（六）不同投标人的投标保证金从同一单位或者个人的账户转出。",
        ),
    ),
    "办法第三十七条": (
        "《政府采购货物和服务招标投标管理办法》第三十七条　"
        "有下列情形之一的，视为投标人串通投标，其投标无效：",
        (
            "（一）不同投标人的投标文件由同一单位或者个人编制；",
            "（二）不同投标人委托同一单位或者个人办理投标事宜；",
            "（三）不同投标人的投标文件载明的项目管理成员或者联系人员为同一人；",
            "（四）不同投标人的投标文件异常一致或者投标报价呈规律性差异；",
            "（五）不同投标人的投标文件相互混装；",
            "（六）不同投标人的投标保证金从同一单位或者个人的账户转出。",
        ),
    ),
}
CLAUSES = ("（一）", "（二）", "（三）", "（四）", "（五）", "（六）")


@dataclass(frozen=True)
class Ground:
    """A finding's clause (1 to 6 of the article) and whether the rules take it as grounds."""

    clause: int
    proven: bool  # 认定级; else 线索级

    def cite(self, procurement: bool = False) -> str:
        """The clause as the dossier cites it (``条例第四十条（一）``)."""
        article = "办法第三十七条" if procurement else "条例第四十条"
        return f"{article}{CLAUSES[self.clause - 1]}"

    @property
    def grade(self) -> str:
        return "认定级" if self.proven else "线索级"


# (kind, field or "") -> (clause, proven when strong)
_SIGNS: dict[tuple[str, str], tuple[int, bool]] = {
    ("machine", ""): (1, True),
    ("identical", ""): (1, True),
    ("edit_session", ""): (1, True),
    ("metadata", ""): (1, False),
    ("identifier", "person"): (3, True),
    ("identifier", "certificate"): (3, True),
    ("identifier", "id_number"): (3, False),  # a proxy's as well as a manager's: a lead
    ("identifier", "bank_account"): (6, False),
    ("identifier", ""): (2, False),
    ("cross_name", ""): (5, True),
    ("bill", ""): (4, False),
    ("price", ""): (4, False),
}


def ground_of_signal(signal: Signal) -> Ground:
    """The clause a signal speaks to; 认定级 only where it is strong and the rules take it as grounds."""
    clause, proven = _SIGNS.get((signal.kind, signal.field)) or _SIGNS.get((signal.kind, ""), (4, False))
    return Ground(clause, proven and signal.strength == "strong")


def ground_of_passages() -> Ground:
    """Shared wording not from the tender: 投标文件异常一致, a lead the panel weighs by its evidence."""
    return Ground(4, False)


def ground_of_pattern() -> Ground:
    """Totals in a pattern: 投标报价呈规律性差异."""
    return Ground(4, False)
