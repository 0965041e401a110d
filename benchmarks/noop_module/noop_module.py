"""A benchmark stand-in: an evaluate module that computes nothing, with the features given.

``evaluate.load("benchmarks/noop_module", features=module.features)`` takes a nerlens
module's features, so that its ``compute`` pays what evaluate adds to that module's
(checking and encoding the inputs into Arrow, writing and reading them back, decoding
them to Python lists) and nothing else: the floor a module's ``compute`` stands on. Used
only by ``benchmarks/bench_evaluate.py``.
"""
import evaluate


class NoopModule(evaluate.Metric):
    def __init__(self, *args, features=None, **kwargs):
        self._features = features    # before EvaluationModule.__init__, which calls _info()
        super().__init__(*args, **kwargs)

    def _info(self):
        return evaluate.MetricInfo(description=__doc__, citation="", inputs_description="",
                                   features=self._features)

    def _compute(self, **inputs):
        return {}
